"""What the live preview adds to the gallery page: links to the print sheets, the problems overlay
and the script that follows the server's events, swapping in the components that changed (the
rest of the page, scroll position included, stays as it is)."""

from __future__ import annotations

from html import escape


def live_html(sheets: list[tuple[str, str, str]]) -> str:
    """The links (deck file name and name in a language, the language), overlay and script for the page's end."""
    links = " ".join(
        f'<a href="/sheets/{escape(lang)}/{escape(file)}.pdf" data-lang="{escape(lang)}">'
        f"{escape(name)} ({escape(lang)})</a>"
        for file, lang, name in sheets
    )
    return (
        '<button type="button" id="mz-design" aria-pressed="false" hidden '
        'title="Draw every face with its text boxes, trim and safe area">Design mode</button>'
        f'<nav id="mz-sheets" aria-label="Print sheets"><b>Print sheets</b> {links}</nav>'
        '<aside id="mz-problems" hidden><h2>The last change has problems: the preview shows the last good build'
        "</h2><ol></ol></aside>"
        f"<style>{_CSS}</style><script>{_JS}</script>"
    )


_CSS = """
header { flex-wrap: wrap; row-gap: .4em; }
header h1 { flex: 1 1 12em; min-width: 0; overflow-wrap: anywhere; }
header nav { display: flex; flex-wrap: wrap; gap: .3em; }
#mz-design { font: inherit; padding: .2em .8em; border: 1px solid #fff8; background: none; color: #fff;
  border-radius: 4px; cursor: pointer; }
#mz-design[aria-pressed="true"] { background: #fff; color: #2b2622; }
#mz-design:focus-visible { outline: 3px solid #7fb2f0; outline-offset: 2px; }
#mz-sheets { padding: .6em 1.2em 1.5em; display: flex; flex-wrap: wrap; gap: .3em 1em; }
#mz-sheets a { color: inherit; }
#mz-sheets a.other { display: none; }
#mz-problems { position: fixed; left: 1em; right: 1em; bottom: 1em; z-index: 3; max-height: 45vh;
  overflow: auto; background: #fff; border: 2px solid #a94442; border-radius: 6px;
  box-shadow: 0 .3em 1.5em #0006; padding: .6em 1em; font-size: 13px; }
#mz-problems h2 { font-size: 1em; margin: 0 0 .4em; color: #a94442; }
#mz-problems ol { margin: 0; padding-left: 1.4em; }
#mz-problems li { margin: .2em 0; }
#mz-problems .warning { color: #8a6d3b; }
#mz-problems code { background: #f4f1ea; padding: 0 .3em; }
"""

_JS = """
(function () {
  var served = {};  // element id -> its HTML as the server last sent it
  var version = null;
  function remember(root) {
    root.querySelectorAll('[id]').forEach(function (el) { served[el.id] = el.outerHTML; });
  }
  // Where a problem is, written as the terminal writes it (errors.Loc): file:line:col, or in a
  // workbook file.xlsx[Sheet]!D3.
  function located(p) {
    if (!p.file) { return 'pack'; }
    if (p.sheet !== undefined && p.sheet !== null) {
      var col = p.column, letters = '';
      while (col > 0) { var r = (col - 1) % 26; letters = String.fromCharCode(65 + r) + letters; col = (col - 1 - r) / 26; }
      return p.file + '[' + p.sheet + ']' + (p.line ? '!' + (letters || 'A') + p.line : '');
    }
    return p.line ? p.file + ':' + p.line + ':' + p.column : p.file;
  }
  function currentLang() {
    var b = document.querySelector('button.lang[aria-pressed="true"]');
    return b ? b.dataset.lang : null;
  }
  // Design mode: every face's picture swapped for one with its guides drawn (the server draws it).
  function designing() {
    return document.getElementById('mz-design').getAttribute('aria-pressed') === 'true';
  }
  function designed(root, on) {
    root.querySelectorAll('img, a.zoom').forEach(function (el) {
      Array.prototype.forEach.call(el.attributes, function (a) {  // src, href and each language's data-src-*
        if (!/^(src|href|data-src)/.test(a.name) || a.value.indexOf('img/') !== 0) { return; }
        var plain = a.value.replace(/[?&]design=1$/, '');
        el.setAttribute(a.name, on ? plain + (plain.indexOf('?') < 0 ? '?' : '&') + 'design=1' : plain);
      });
    });
  }
  function applyDesign() {
    var on = designing();
    try { localStorage.setItem('mz-design', on ? '1' : ''); } catch (e) {}
    designed(document, on);
    document.documentElement.dataset.design = on ? 'on' : 'off';
  }
  document.addEventListener('DOMContentLoaded', function () {
    var toggle = document.getElementById('mz-design');
    var header = document.querySelector('header');
    if (header) { header.appendChild(toggle); }  // in the header's flow, which wraps: it covers nothing
    toggle.hidden = false;
    var stored = false;
    try { stored = localStorage.getItem('mz-design') === '1'; } catch (e) {}
    toggle.setAttribute('aria-pressed', stored ? 'true' : 'false');
    toggle.addEventListener('click', function () {
      toggle.setAttribute('aria-pressed', toggle.getAttribute('aria-pressed') === 'true' ? 'false' : 'true');
      applyDesign();
    });
  });
  function applyLang() {
    var lang = currentLang();
    var b = lang && document.querySelector('button.lang[data-lang="' + lang + '"]');
    if (b) { b.click(); }
    document.querySelectorAll('#mz-sheets a').forEach(function (a) {
      a.classList.toggle('other', a.dataset.lang !== lang);
    });
    applyDesign();
  }
  // Make `old`'s children those of `fresh`, keyed by id; an element whose served HTML is unchanged
  // stays (its images are not fetched again), others are replaced.
  function morph(old, fresh) {
    var keep = {};
    Array.prototype.forEach.call(fresh.children, function (child, i) {
      if (!child.id) { return; }  // the table of contents: replaced whole by refresh()
      var here = document.getElementById(child.id);
      if (here && served[child.id] === child.outerHTML) {
        keep[child.id] = true;
      } else if (here && child.tagName === 'SECTION') {
        morph(here.querySelector('.grid'), child.querySelector('.grid'));
        var h2 = here.querySelector('h2'), h2new = child.querySelector('h2');
        if (h2.outerHTML !== h2new.outerHTML) { h2.replaceWith(document.importNode(h2new, true)); }
        keep[child.id] = true;
      } else {
        var node = document.importNode(child, true);
        if (here) { here.replaceWith(node); } else { old.appendChild(node); }
        keep[node.id] = true;
      }
      var now = document.getElementById(child.id);
      if (old.children[i] !== now) { old.insertBefore(now, old.children[i] || null); }
    });
    Array.prototype.slice.call(old.children).forEach(function (el) {
      if (el.id && !keep[el.id]) { el.remove(); }
    });
  }
  // One refresh at a time, the page fetched again after one that a newer status came during: two
  // fetches in flight may answer out of order (the first served while the next stage was building),
  // and the older page must never be the one left on screen.
  var fetching = false, again = false;
  function refresh() {
    if (!document.querySelector('main')) { location.reload(); return; }  // the first good build
    if (fetching) { again = true; return; }
    fetching = true;
    fetch('/', {cache: 'no-store'}).then(function (r) { return r.text(); }).then(function (html) {
      var page = new DOMParser().parseFromString(html, 'text/html');
      var y = window.scrollY;
      morph(document.querySelector('main'), page.querySelector('main'));
      document.querySelector('main > .toc').innerHTML = page.querySelector('main > .toc').innerHTML;
      document.querySelector('header .summary').textContent = page.querySelector('header .summary').textContent;
      document.getElementById('mz-sheets').innerHTML = page.getElementById('mz-sheets').innerHTML;
      remember(page);
      applyLang();
      window.scrollTo(0, y);
      document.documentElement.dataset.version = version;
    }).finally(function () {
      fetching = false;
      if (again) { again = false; refresh(); }
    });
  }
  // A build that changed a few components: their new <article>s swapped in as the server sent them,
  // shown in the page's language and design mode before they enter the page, so that their pictures
  // are asked for at once (eagerly, where they are in view or near it).
  function patch(p) {
    var lang = currentLang(), on = designing(), ids = Object.keys(p.parts);
    if (!ids.every(function (id) { return document.getElementById(id); })) { return false; }  // not this page
    ids.forEach(function (id) {
      var here = document.getElementById(id);
      var t = document.createElement('template');
      t.innerHTML = p.parts[id];
      var node = t.content.firstElementChild;
      served[id] = node.outerHTML;
      remember(node);
      if (lang && window.mzLocalise) { window.mzLocalise(node, lang); }
      designed(node, on);
      var box = here.getBoundingClientRect();
      if (box.bottom > -window.innerHeight && box.top < 2 * window.innerHeight) {
        node.querySelectorAll('img[loading="lazy"]').forEach(function (img) { img.loading = 'eager'; });
      }
      here.replaceWith(node);
    });
    document.querySelector('header .summary').textContent = p.summary;
    document.documentElement.dataset.version = version;
    return true;
  }
  function overlay(status) {
    var box = document.getElementById('mz-problems'), list = box.querySelector('ol');
    list.textContent = '';
    if (status.ok) { box.hidden = true; return; }
    status.problems.forEach(function (p) {
      var li = document.createElement('li'), where = document.createElement('code');
      li.className = p.severity;
      where.textContent = located(p);
      li.appendChild(where);
      var who = [p.component, p.field].filter(Boolean).join('.');
      li.appendChild(document.createTextNode(
        ' ' + p.severity + (who ? ' [' + who + ']' : '') + (p.lang ? ' (' + p.lang + ')' : '') +
        ': ' + p.message + ' (' + p.rule + ')'));
      list.appendChild(li);
    });
    box.hidden = false;
  }
  fetch('/', {cache: 'no-store'}).then(function (r) { return r.text(); }).then(function (html) {
    remember(new DOMParser().parseFromString(html, 'text/html'));
    applyLang();
    var events = new EventSource('/events');
    events.addEventListener('status', function (e) {
      var status = JSON.parse(e.data);
      overlay(status);
      if (status.ok && ((version !== null && status.version !== version) || !document.querySelector('main'))) {
        var base = version;
        version = status.version;
        var patched = status.patch && status.patch.base === base && !fetching && document.querySelector('main') &&
          patch(status.patch);
        if (!patched) { refresh(); }
      }
      if (version === null || status.ok) { version = status.version; }
      document.documentElement.dataset.status = status.ok ? 'ok' : 'problems';
    });
  });
})();
"""
