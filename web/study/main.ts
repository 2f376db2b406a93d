/**
 * The participant's page of `parley study`: consent → waiting room → the seat page (`/seat#token=…`) →
 * exit survey → completion code. Talks only to the study's JSON API; the participant's token (given at
 * consent) is kept in localStorage under their id and sent in an Authorization header, so coming back
 * with the same link resumes the same session. Every text from the server is set as text.
 */
import type { ParticipantView } from '../../protocol/study.js';


interface Info { participantParam: string; consent: { text: string; version: string }; survey: Array<{ id: string; question: string; choices: string[] }> }
type View = ParticipantView;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
const SECTIONS = ['consent', 'waiting', 'survey', 'complete', 'declined'];
let info: Info;
let pid = '';
let token = '';
const tokenKey = () => `parley:study:${pid}`;

function show(section: string): void {
  for (const s of SECTIONS) $(s).hidden = s !== section;
}

function showError(message: string): void {
  $('error').hidden = false;
  $('error').textContent = message;
}

async function api(path: string, body?: unknown): Promise<Response> {
  return fetch(path, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function errorOf(res: Response): Promise<string> {
  try {
    return ((await res.json()) as { error?: string }).error ?? `HTTP ${res.status}`;
  } catch {
    return `HTTP ${res.status}`;
  }
}

async function consent(agree: boolean): Promise<void> {
  const res = await api('/api/study/consent', { pid, agree });
  if (!res.ok) return showError(await errorOf(res));
  if (!agree) return show('declined');
  token = ((await res.json()) as { token: string }).token;
  localStorage.setItem(tokenKey(), token);
  void follow(-1);
}

/** Follows the participant's state with long polls until the page leaves (the seat page) or the study is done. */
async function follow(since: number): Promise<void> {
  for (;;) {
    let res: Response;
    try {
      res = await api(`/api/study/state?since=${since}`);
    } catch {
      showError('Lost the connection to the study; retrying…');
      await new Promise((r) => setTimeout(r, 3000));
      continue;
    }
    if (res.status === 401) {
      localStorage.removeItem(tokenKey());
      token = '';
      return showConsent();
    }
    if (!res.ok) {
      showError(await errorOf(res));
      await new Promise((r) => setTimeout(r, 3000));
      continue;
    }
    $('error').hidden = true;
    const view = (await res.json()) as View;
    since = view.version;
    if (render(view)) return;
  }
}

/** Shows a state; true when the page is done following (it navigated, or the study is complete). */
function render(view: View): boolean {
  if (view.state === 'waiting') {
    show('waiting');
    const w = view.waiting ?? { count: 1, secondsLeft: null };
    $('waiting-count').textContent = `People waiting now: ${w.count}`;
    $('waiting-estimate').textContent = w.secondsLeft === null ? 'You will be paired as soon as another participant arrives.' : `Estimated wait: at most ${w.secondsLeft} s.`;
    return false;
  }
  if (view.state === 'playing') {
    if (!view.seat) return false;
    location.assign(`/seat#token=${encodeURIComponent(view.seat)}`);
    return true;
  }
  if (view.state === 'survey') {
    show('survey');
    return true;
  }
  show('complete');
  const c = view.completion;
  if (c && 'code' in c) $('completion').textContent = `Your completion code is ${c.code}`;
  else if (c) {
    const a = document.createElement('a');
    a.href = c.redirect;
    a.textContent = 'Return to the study platform';
    $('completion').replaceChildren('You have completed the study. ', a);
    location.assign(c.redirect);
  }
  $('again-row').hidden = !view.canPlayAgain;
  return true;
}

function buildSurvey(): void {
  const items = info.survey.map((item) => {
    const set = document.createElement('fieldset');
    set.className = 'question';
    const legend = document.createElement('legend');
    legend.textContent = item.question;
    const row = document.createElement('div');
    row.className = 'choice-row';
    for (const choice of item.choices) {
      const label = document.createElement('label');
      const input = document.createElement('input');
      input.type = 'radio';
      input.name = item.id;
      input.value = choice;
      input.required = true;
      label.append(input, choice);
      row.append(label);
    }
    set.append(legend, row);
    return set;
  });
  $('survey-items').replaceChildren(...items);
}

async function submitSurvey(e: SubmitEvent): Promise<void> {
  e.preventDefault();
  const answers: Record<string, string> = {};
  for (const item of info.survey) {
    const picked = document.querySelector<HTMLInputElement>(`input[name="${CSS.escape(item.id)}"]:checked`);
    if (picked) answers[item.id] = picked.value;
  }
  const res = await api('/api/study/survey', { answers });
  if (!res.ok) return showError(await errorOf(res));
  render((await res.json()) as View);
}

function showConsent(): void {
  show('consent');
  $('consent-text').textContent = info.consent.text;
  $('consent-version').textContent = `Consent version ${info.consent.version}`;
}

async function main(): Promise<void> {
  const res = await api('/api/study/info');
  if (!res.ok) return showError(await errorOf(res));
  info = (await res.json()) as Info;
  // The seat page's "Continue" comes back to `/` without the platform's parameters: the id of this tab's session.
  pid = new URLSearchParams(location.search).get(info.participantParam) ?? sessionStorage.getItem('parley:study:pid') ?? '';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(pid)) return showError(`This link has no participant id (${info.participantParam}). Open the study from the link the recruitment platform gave you.`);
  sessionStorage.setItem('parley:study:pid', pid);
  buildSurvey();
  $('agree').addEventListener('click', () => void consent(true));
  $('decline').addEventListener('click', () => void consent(false));
  $<HTMLFormElement>('survey').addEventListener('submit', (e) => void submitSurvey(e));
  $('again').addEventListener('click', () => void api('/api/study/again', {}).then(() => follow(-1)));
  token = localStorage.getItem(tokenKey()) ?? '';
  if (token) void follow(-1);
  else showConsent();
}

void main();
