// The HTTP API of `skirmish serve`, as small async functions returning parsed JSON.

export class ApiError extends Error {
  constructor(status, detail, rule) {
    super(detail);
    this.status = status;
    this.rule = rule ?? null;
  }
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const res = await fetch(path, init);
  let data = null;
  try {
    data = await res.json();
  } catch {
    data = null;
  }
  if (!res.ok) {
    let detail = data && data.detail !== undefined ? data.detail : `${res.status} ${res.statusText}`;
    if (typeof detail !== "string") detail = JSON.stringify(detail);
    throw new ApiError(res.status, detail, data && data.rule);
  }
  return data;
}

const enc = encodeURIComponent;

export const api = {
  scenarios: () => call("GET", "/api/scenarios"),
  games: () => call("GET", "/api/games"),
  newGame: (body) => call("POST", "/api/games", body),
  game: (id) => call("GET", `/api/games/${enc(id)}`),
  card: (id, cid) => call("GET", `/api/games/${enc(id)}/creatures/${enc(cid)}`),
  actions: (id) => call("GET", `/api/games/${enc(id)}/actions`),
  act: (id, body) => call("POST", `/api/games/${enc(id)}/actions`, body),
  advance: (id, maxActions) =>
    call("POST", `/api/games/${enc(id)}/advance`, maxActions ? { max_actions: maxActions } : {}),
  events: (id, since) => call("GET", `/api/games/${enc(id)}/events?since=${since}`),
  replayUrl: (id) => `/api/games/${enc(id)}/replay`,
  replayOfGame: (id) => call("GET", `/api/games/${enc(id)}/replay`),
  load: (replay, players) => call("POST", "/api/games/load", players ? { replay, players } : { replay }),
  openReplay: (replay) => call("POST", "/api/replays", replay),
  replayStep: (id, k) => call("GET", `/api/replays/${enc(id)}?step=${k}`),
  replaySteps: (id) => call("GET", `/api/replays/${enc(id)}/steps`),
};
