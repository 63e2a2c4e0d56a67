"""The test browser (tests/cdp.py) itself: a poll that spans page navigations keeps polling.

The live preview reloads its page on the first good build; a `wait_for` whose evaluation met that reload
failed with Chromium's "Inspected target navigated or closed" (seen once in CI under load)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import need_tool

# A page that navigates itself 40 times in quick succession (each time to ?n+1), then says it is done.
_RESTLESS = """<!doctype html><title>n</title><script>
const n = Number(location.search.slice(1) || 0);
if (n < 40) setTimeout(() => location.replace('?' + (n + 1)), 5);
else document.title = 'done';
</script>"""


def test_wait_for_keeps_polling_across_navigations(tmp_path: Path) -> None:
    need_tool("chromium")
    from cdp import Browser

    page = tmp_path / "restless.html"
    page.write_text(_RESTLESS)
    with Browser(tmp_path / "profile") as b:
        b.open(page.as_uri())
        # Each poll takes 30 ms to answer, so most polls are still running when the page goes.
        late = "new Promise(r => setTimeout(() => r(document.title === 'done' && location.search), 30))"
        assert b.wait_for(late) == "?40"
        # A real error of the expression is still an error at once, not a page gone polled again.
        with pytest.raises(RuntimeError, match="no_such_name") as err:
            b.wait_for("no_such_name.x", timeout=5)
        assert err.type is RuntimeError
