"""Replay viewer benchmarks (issue 12), in Debian's headless Chromium driven by playwright.

For a 300-step game (``bench_replay.long_log(300)``) and a self-play game under the heuristic
policy, exported as one offline HTML file (``arbiter export-html``'s page):

1. the file's size;
2. time to the first drawn step: from the navigation's start to the page marking itself ready
   (``data-ready-ms``, the page's own ``performance.now()``), median of ``--runs`` cold loads;
3. scrubbing across every step: each step drawn in turn (``arbiterViewer.go(i)`` and a forced
   layout), the total, the median and the slowest step.

Run: ``python bench/bench_viewer.py [--runs N]`` (``make bench`` runs it). Without Chromium it says
so and exits 0 (nothing to measure).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.bench_replay import long_log  # noqa: E402
from replays.selfplay import play_game, policies  # noqa: E402
from replays.viewer import page, viewer_json  # noqa: E402

CHROMIUM = Path(os.environ.get("ARBITER_CHROMIUM", "/usr/bin/chromium"))
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]

SCRUB = """() => {
  const v = window.arbiterViewer, n = v.data.steps.length, times = [];
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    v.go(i);
    void document.body.offsetHeight;  // layout now, inside the step's time
    times.push(performance.now() - s);
  }
  return {total: performance.now() - t0, times: times};
}"""


def measure(browser, html: Path, runs: int) -> dict:  # noqa: ANN001
    firsts = []
    for _ in range(runs):
        context = browser.new_context(offline=True, viewport={"width": 1400, "height": 1000})
        tab = context.new_page()
        tab.goto(html.as_uri())
        tab.wait_for_selector("#viewer[data-ready=true]")
        firsts.append(int(tab.get_attribute("#viewer", "data-ready-ms")))
        if len(firsts) == runs:
            scrub = tab.evaluate(SCRUB)
        context.close()
    times = sorted(scrub["times"])
    return {"first_ms": statistics.median(firsts), "first_all": firsts, "scrub_total_ms": scrub["total"],
            "steps": len(times), "step_median_ms": statistics.median(times), "step_max_ms": times[-1],
            "over_50ms": sum(1 for t in times if t > 50)}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5, help="cold loads per file (median)")
    args = ap.parse_args()
    if not CHROMIUM.exists():
        print(f"bench_viewer: no {CHROMIUM}; nothing measured (apt-get install chromium)")
        return 0
    from playwright.sync_api import sync_playwright

    heuristic = policies()[0] if policies() else None
    games = {
        "long_log(300)": long_log(300),
        "self-play (heuristic, seed bench-1)": play_game("bench-1", "AW-H", "AW-V", policy=heuristic).log,
    }
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        print(f"{'game':38} {'steps':>5} {'size KiB':>9} {'build s':>8} {'first ms':>9} {'scrub ms':>9} "
              f"{'step med':>9} {'step max':>9} {'>50ms':>6}")
        for name, log in games.items():
            t0 = time.perf_counter()
            text = page(viewer_json(log))
            build = time.perf_counter() - t0
            html = Path(tmp) / "game.html"
            html.write_text(text, encoding="utf-8")
            size = html.stat().st_size
            m = measure(browser, html, args.runs)
            print(f"{name:38} {m['steps']:>5} {size / 1024:>9.0f} {build:>8.2f} {m['first_ms']:>9.0f} "
                  f"{m['scrub_total_ms']:>9.0f} {m['step_median_ms']:>9.2f} {m['step_max_ms']:>9.1f} "
                  f"{m['over_50ms']:>6}")
        browser.close()
    print("first ms: navigation start to the first step drawn (median of cold loads); scrub ms: every step "
          "drawn in turn; step med/max: one step's draw and layout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
