// coursebook's search page: the query in ?q= (or typed into the field) against the Pagefind
// index that `coursebook build` wrote into pagefind/. Only this page loads it; every other page
// is read without any script. A classic script, not a module: a page opened from disk may run
// it (and say why it cannot search), where a module would not load at all.
(() => {
const root = document.getElementById('search');
const form = root.querySelector('form');
const field = root.querySelector('input[type="search"]');
const status = root.querySelector('.search-status[role="status"]');
const list = root.querySelector('.search-results');
const words = root.dataset;
field.value = new URLSearchParams(location.search).get('q') || '';

// The site's own folder, wherever it is served: Pagefind's result URLs start from there.
const base = new URL('./', location.href);

function say(template, query, count) {
  status.textContent = template.replace('{query}', query).replace('{count}', String(count));
}

function element(name, className, text) {
  const made = document.createElement(name);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

// Pagefind's excerpts are its own escaped text with <mark> around the words found.
function excerpt(html) {
  const paragraph = element('p', 'search-excerpt');
  paragraph.innerHTML = html;
  return paragraph;
}

function relative(url) {
  return url.startsWith(base.pathname) ? url.slice(base.pathname.length) : url.replace(/^\//, '');
}

function result(data) {
  const item = element('li', 'search-result');
  const heading = element('h2');
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
      entry.append(section, excerpt(sub.excerpt));
      inner.append(entry);
    }
    item.append(inner);
  }
  return item;
}

async function start() {
  if (location.protocol === 'file:') {
    status.textContent = words.needsServer;
    return;
  }
  let pagefind;
  try {
    pagefind = await import(new URL('pagefind/pagefind.js', base).href);
    await pagefind.options({ baseUrl: base.pathname, excerptLength: 22 });
    await pagefind.init();
  } catch (error) {
    status.textContent = words.needsServer;
    return;
  }
  let latest = 0;
  async function run() {
    const query = field.value.trim();
    const ticket = ++latest;
    history.replaceState(null, '', query ? `?q=${encodeURIComponent(query)}` : location.pathname);
    if (!query) {
      list.replaceChildren();
      status.textContent = '';
      return;
    }
    const search = await pagefind.debouncedSearch(query, {}, 120);
    if (search === null || ticket !== latest) return;
    const found = await Promise.all(search.results.slice(0, 12).map((entry) => entry.data()));
    if (ticket !== latest) return;
    say(found.length ? words.results : words.nothing, query, search.results.length);
    list.replaceChildren(...found.map(result));
  }
  field.addEventListener('input', run);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    run();
  });
  run();
}

start();
})();
