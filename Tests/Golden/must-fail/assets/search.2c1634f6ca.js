// coursebook's search, against the Pagefind index that `coursebook build` wrote into pagefind/:
// in the dialog every page opens over itself (this script is loaded the first time a reader
// asks for it), and on the search page (its query in ?q=). A classic script, not a module: a
// page opened from disk may run it (and say why it cannot search), where a module would not
// load at all.
(() => {
// The site's own folder, wherever it is served: Pagefind's result URLs start from there.
const base = new URL('./', location.href);

function element(name, className, text) {
  const made = document.createElement(name);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

// Pagefind's excerpts are its own escaped text with <mark> around the words found. A section's
// excerpt starts with the section's title, which its link above already shows: it is left out.
function excerpt(html, title) {
  const paragraph = element('p', 'search-excerpt');
  paragraph.innerHTML = html;
  if (title && paragraph.textContent.startsWith(title)) {
    let left = title.length;
    const walker = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
    while (left > 0 && walker.nextNode()) {
      const text = walker.currentNode, cut = Math.min(left, text.data.length);
      text.data = text.data.slice(cut);
      left -= cut;
    }
    const first = document.createTreeWalker(paragraph, NodeFilter.SHOW_TEXT);
    while (first.nextNode()) {
      first.currentNode.data = first.currentNode.data.replace(/^[.:]?\s*/, '');
      if (first.currentNode.data) break;
    }
  }
  return paragraph;
}

// The words of a text, in the page's language's lower case (Turkish İ and I), for comparing.
function words(text) {
  return text.toLocaleLowerCase(document.documentElement.lang).split(/[^\p{L}\p{N}@]+/u).filter(Boolean);
}

// Pagefind weighs a lesson's title above its body, but a stemmed word counts as the word
// itself: for "ortam" a long lesson titled "Ortamda ..." outscores the lesson titled "Ortam".
// A result whose title holds every word of the query as it was typed comes first.
function titleFirst(found, query) {
  const wanted = words(query);
  const holds = (data) => {
    const title = words(data.meta.title || '');
    return wanted.length > 0 && wanted.every((word) => title.includes(word));
  };
  return [...found.filter(holds), ...found.filter((data) => !holds(data))];
}

function relative(url) {
  return url.startsWith(base.pathname) ? url.slice(base.pathname.length) : url.replace(/^\//, '');
}

function result(data, headingLevel) {
  const item = element('li', 'search-result');
  const heading = element(headingLevel);
  const link = element('a', '', data.meta.title || data.url);
  link.href = relative(data.url);
  heading.append(link);
  item.append(heading);
  // The sections where the words are, each linked to its heading.
  const sections = (data.sub_results || []).filter((sub) => sub.url.includes('#')).slice(0, 3);
  if (sections.length === 0) item.append(excerpt(data.excerpt));
  if (sections.length > 0) {
    const inner = element('ul', 'search-sections');
    for (const sub of sections) {
      const entry = element('li');
      const section = element('a', '', sub.title);
      section.href = relative(sub.url);
      entry.append(section, excerpt(sub.excerpt, sub.title));
      inner.append(entry);
    }
    item.append(inner);
  }
  return item;
}

// Pagefind ranks a result by BM25 with the statistics of its own bundle: the share of its pages
// that hold the word (a word in half the pages of one shard and in every page of another weighs
// four times as much in the first) and their mean length. The build gives each bundle pages
// that hold no word (`balance`, how many each has), so that every bundle's mean page length is
// the whole index's; then a result's score is its bundle's inverse document frequency times
// what one index gives, and each is taken to the whole index's: idf(N, n) / idf(N_b, n_b) (N_b
// pages in its bundle, balance pages included, n_b of them found; N and n in all), as Pagefind
// computes it, so that the results of all bundles rank as one index would rank them: exactly
// so for a query of one word, whatever forms of it a page holds. `list` is
// coursebook-shards.json: each bundle's page ids (`pages`) and its balance pages; one bundle
// keeps Pagefind's order.
// [acrossBundles
function acrossBundles(results, list) {
  const bundles = list?.pages;
  if (!Array.isArray(bundles) || bundles.length < 2) return results;
  const balance = Array.isArray(list.balance) && list.balance.length === bundles.length ? list.balance : bundles.map(() => 0);
  const bundleOf = new Map();
  bundles.forEach((ids, number) => ids.forEach((id) => bundleOf.set(id, number)));
  const idf = (pages, found) => Math.log((pages - found + 0.5) / (found + 0.5) + 1);
  const found = bundles.map(() => 0);
  for (const entry of results) if (bundleOf.has(entry.id)) found[bundleOf.get(entry.id)] += 1;
  const whole = idf(bundles.reduce((total, ids) => total + ids.length, 0), results.length);
  const score = (entry) => {
    const number = bundleOf.get(entry.id);
    return number === undefined ? entry.score : entry.score * whole / idf(bundles[number].length + (Number(balance[number]) || 0), found[number]);
  };
  return results.map((entry) => ({ entry, score: score(entry) }))
    .sort((first, second) => second.score - first.score).map(({ entry }) => entry);
}
// acrossBundles]

let loaded;
// Pagefind, loaded once, and the page ids and balance pages of each bundle of the index; null
// when it cannot be (a page opened from disk). A large course's index is in shards: the first
// in pagefind/, the others in the folders its list names, each merged into the first
// (searched with its scripts, results ranked together by `acrossBundles`).
function pagefind() {
  loaded ??= (async () => {
    if (location.protocol === 'file:') return null;
    try {
      const folder = new URL('pagefind/', base);
      const list = fetch(new URL('coursebook-shards.json', folder)).then((response) => response.ok ? response.json() : {});
      const found = await import(new URL('pagefind.js', folder).href);
      const options = { baseUrl: base.pathname, excerptLength: 22 };
      await found.options(options);
      await found.init();
      const listed = await list.catch(() => ({}));
      const shards = listed.shards || [];
      const merged = await Promise.all(shards.map((shard) => found.mergeIndex(new URL(shard, folder).href, options).then(() => true, () => false)));
      // A bundle that could not be merged finds nothing: the others are ranked without it.
      const kept = (value, number) => number === 0 || merged[number - 1];
      return { found, list: { pages: (listed.pages || []).filter(kept), balance: listed.balance?.filter(kept) } };
    } catch (error) {
      return null;
    }
  })();
  return loaded;
}

// Searches as the reader types into `field`, saying what it found in `status` and listing the
// results in `list`; `onQuery` hears each query (the search page keeps it in its address).
function attach({ field, status, list, labels, headingLevel, onQuery }) {
  let latest = 0;
  const say = (template, query, count) => {
    status.textContent = template.replace('{query}', query).replace('{count}', String(count));
  };
  async function run() {
    const query = field.value.trim();
    const ticket = ++latest;
    onQuery?.(query);
    const index = await pagefind();
    if (ticket !== latest) return;
    if (index === null) {
      status.textContent = labels.needsServer;
      return;
    }
    if (!query) {
      list.replaceChildren();
      status.textContent = '';
      return;
    }
    const search = await index.found.debouncedSearch(query, {}, 120);
    if (search === null || ticket !== latest) return;
    const ranked = acrossBundles(search.results, index.list);
    const found = await Promise.all(ranked.slice(0, 12).map((entry) => entry.data()));
    if (ticket !== latest) return;
    say(found.length ? labels.results : labels.nothing, query, search.results.length);
    list.replaceChildren(...titleFirst(found, query).map((data) => result(data, headingLevel)));
  }
  field.addEventListener('input', run);
  // Enter follows the first result; the arrow keys walk the results and back to the field.
  field.addEventListener('keydown', (event) => {
    const first = list.querySelector('a');
    if (event.key === 'Enter' && first) { event.preventDefault(); first.click(); }
    if (event.key === 'ArrowDown' && first) { event.preventDefault(); first.focus(); }
  });
  list.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const links = [...list.querySelectorAll('a')];
    const index = links.indexOf(document.activeElement);
    if (index < 0) return;
    event.preventDefault();
    const next = index + (event.key === 'ArrowDown' ? 1 : -1);
    (next < 0 ? field : links[Math.min(next, links.length - 1)]).focus();
  });
  return run;
}

// The search page: the query in ?q= or typed into its field.
const page = document.getElementById('search');
if (page) {
  const field = page.querySelector('input[type="search"]');
  field.value = new URLSearchParams(location.search).get('q') || '';
  const run = attach({
    field, status: page.querySelector('.search-status[role="status"]'), list: page.querySelector('.search-results'),
    labels: page.dataset, headingLevel: 'h2',
    onQuery: (query) => history.replaceState(null, '', query ? `?q=${encodeURIComponent(query)}` : location.pathname),
  });
  page.querySelector('form').addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  run();
}

// The dialog over any other page, made the first time the header's button (or "/") asks for
// it, in the words the header's form carries; closed by Escape, its close button, a click
// beside it or a result followed; focus goes back where it was.
const form = document.querySelector('form.site-search');
if (form && !page) {
  const words = form.dataset;
  const dialog = element('dialog', 'search-dialog');
  dialog.setAttribute('aria-label', words.label);
  const bar = element('div', 'search-bar');
  const label = element('label', 'visually-hidden', words.label);
  label.htmlFor = 'search-dialog-field';
  const input = element('input');
  Object.assign(input, { id: 'search-dialog-field', type: 'search', placeholder: words.placeholder, autocomplete: 'off', enterKeyHint: 'search' });
  const close = element('button', 'search-close', words.close);
  close.type = 'button';
  bar.append(label, input, close);
  const status = element('p', 'search-status');
  status.setAttribute('role', 'status');
  status.setAttribute('aria-live', 'polite');
  dialog.append(bar, status, element('ol', 'search-results'));
  Object.assign(dialog.dataset, { results: words.results, nothing: words.nothing, needsServer: words.needsServer });
  document.body.append(dialog);
  const field = dialog.querySelector('input[type="search"]');
  const list = dialog.querySelector('.search-results');
  const run = attach({ field, status: dialog.querySelector('.search-status'), list, labels: dialog.dataset, headingLevel: 'h2' });
  let opener = null;
  dialog.querySelector('.search-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
    // A result on this same page: the dialog closes so that the reader sees it.
    if (event.target.closest('a')) dialog.close();
  });
  // Escape closes at once: in a search field it would first only clear the text.
  dialog.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') { event.preventDefault(); dialog.close(); }
  });
  dialog.addEventListener('close', () => opener?.focus());
  window.coursebookSearch = {
    open(from) {
      opener = from || document.activeElement;
      if (!dialog.open) dialog.showModal();
      field.focus();
      field.select();
      run();
    },
  };
}
})();
