import { useEffect, useState } from "preact/hooks";
import { getJson } from "./api.js";
import { CalibrationView } from "./calibration-view.js";
import { GapsView } from "./gaps-view.js";
import { PlaygroundView } from "./playground-view.js";
import { routeParameter } from "./route-parameter.js";
import { TraceView } from "./trace-view.js";
import { TracesView } from "./traces-view.js";
import { WhyNotView, type WhyNotStart } from "./why-not-view.js";
import type { Info } from "./types.js";

function currentRoute(): string {
  return location.hash.replace(/^#/, "") || "/traces";
}

/** The query and page a `#/why-not?…` link names (URL parameters; a malformed escape is read as written). */
function whyNotStart(search: string): WhyNotStart {
  const parameters = new URLSearchParams(search);
  const query = parameters.get("query");
  const expected = parameters.get("expected");
  return { ...(query === null ? {} : { query }), ...(expected === null ? {} : { expected }) };
}

/** The page: a header with the store and the views, routed by the URL's hash. */
export function App() {
  const [route, setRoute] = useState(currentRoute());
  const [info, setInfo] = useState<Info | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    const changed = () => setRoute(currentRoute());
    addEventListener("hashchange", changed);
    getJson<Info>("/api/info").then(setInfo, (failure: Error) => setError(failure.message));
    return () => removeEventListener("hashchange", changed);
  }, []);
  const trace = /^\/trace\/(.+)$/.exec(route);
  const rerun = /^\/playground\/(.+)$/.exec(route);
  // `#/why-not?query=…&expected=…`: a link that opens Why not filled in (the Gaps view's, for a group's closest page).
  const whyNot = /^\/why-not(?:\?(.*))?$/.exec(route);
  const routePath = route.replace(/\?.*$/, "");
  const links = [
    ["/traces", "Traces"],
    ["/playground", "Playground"],
    ["/why-not", "Why not"],
    ["/gaps", "Gaps"],
    ["/calibration", "Calibration"],
  ] as const;
  return (
    <>
      <header class="top">
        <h1>lookup-knowledge inspector</h1>
        <nav>
          {links.map(([path, label]) => (
            <a key={path} href={`#${path}`} class={routePath === path ? "active" : ""}>
              {label}
            </a>
          ))}
        </nav>
        {info ? (
          <p class="store">
            {info.store} · {info.documents} documents · queries stored as {info.queryStorage}
          </p>
        ) : null}
      </header>
      <main>
        {error ? <p class="error">{error}</p> : null}
        {trace ? (
          <TraceView id={routeParameter(trace[1] ?? "")} />
        ) : route === "/playground" || rerun ? (
          info ? (
            <PlaygroundView key={route} info={info} initialQuery={rerun ? routeParameter(rerun[1] ?? "") : ""} />
          ) : null
        ) : whyNot ? (
          info ? (
            <WhyNotView key={route} info={info} start={whyNotStart(whyNot[1] ?? "")} />
          ) : null
        ) : route === "/gaps" ? (
          info && !info.traces ? (
            <p>No lookups were recorded in this data folder yet: run `lookup-knowledge query "..."`, then reload.</p>
          ) : info ? (
            <GapsView info={info} />
          ) : null
        ) : route === "/calibration" ? (
          <CalibrationView />
        ) : info && !info.traces ? (
          <p>No lookups were recorded in this data folder yet: run `lookup-knowledge query "..."`, then reload.</p>
        ) : (
          <TracesView />
        )}
      </main>
    </>
  );
}
