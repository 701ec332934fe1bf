import { packageTestConfig } from "@lookup-knowledge/vitest-config";

export default packageTestConfig();
