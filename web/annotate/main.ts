/**
 * The annotation page of `parley annotate`: knows the annotator by the token in its link, then shows one pair of
 * conversations at a time (setting, characters' backgrounds and goals, transcripts A and B) and sends
 * the choice with an optional reason. Talks only to the study's small JSON API; no orchestrator, no socket.
 */

interface Item {
  key: string;
  question: string;
  setting: string;
  characters: Array<{ name: string; background: string; goal: string }>;
  first: string;
  second: string;
}
interface Next { annotator: string; done: number; total: number; item: Item | null }

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;
let annotator = '';
let token = '';
const auth = () => ({ authorization: `Bearer ${token}` });
let current: Item | null = null;

function showError(message: string): void {
  $('error').hidden = false;
  $('error').textContent = message;
}

async function loadNext(): Promise<void> {
  const res = await fetch('/api/next', { headers: auth() });
  if (!res.ok) return showError(`The study server refused: ${((await res.json()) as { error: string }).error}`);
  const next = (await res.json()) as Next;
  annotator = next.annotator;
  current = next.item;
  if (!current) {
    $('study').hidden = true;
    $('done').hidden = false;
    const who = document.createElement('bdi');
    who.textContent = annotator;
    $('done').replaceChildren(`All ${next.total} pair(s) answered. Thank you, `, who, '!');
    return;
  }
  $('progress').textContent = `Pair ${next.done + 1} of ${next.total}`;
  $('question').textContent = current.question;
  $('setting').textContent = current.setting;
  $('characters').replaceChildren(...current.characters.map((c) => {
    const div = document.createElement('div');
    const h = document.createElement('h3');
    h.textContent = c.name;
    const bg = document.createElement('p');
    bg.textContent = c.background;
    const goal = document.createElement('p');
    const text = document.createElement('bdi');
    text.textContent = c.goal;
    goal.append('Goal: ', text);
    div.append(h, bg, goal);
    return div;
  }));
  $('first').textContent = current.first;
  $('second').textContent = current.second;
  $<HTMLTextAreaElement>('reason').value = '';
  $('study').hidden = false;
}

async function choose(choice: 'A' | 'B'): Promise<void> {
  if (!current) return;
  const reason = $<HTMLTextAreaElement>('reason').value;
  const res = await fetch('/api/answer', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth() },
    body: JSON.stringify({ key: current.key, choice, ...(reason.trim() ? { reason } : {}) }),
  });
  if (!res.ok) return showError(`Your answer was not recorded: ${((await res.json()) as { error: string }).error}`);
  await loadNext();
}

// The organiser's link carries the annotator's token in the fragment (never sent to the server in the URL);
// the server knows who the token belongs to, so no name is typed and none can be borrowed.
token = /^#token=([0-9a-f]{32})$/.exec(location.hash)?.[1] ?? '';
$('who').hidden = true;
if (!token) showError('Open the study with the link the organiser gave you: it carries your personal token.');
else void loadNext().catch(() => showError('Cannot reach the study server.'));
$('chooseA').addEventListener('click', () => void choose('A').catch(() => showError('Cannot reach the study server.')));
$('chooseB').addEventListener('click', () => void choose('B').catch(() => showError('Cannot reach the study server.')));
