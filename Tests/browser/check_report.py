"""Checks an HTML report in headless Chromium (Selenium with Debian's chromium-driver).

Usage: python3 check_report.py REPORT.html [SCREENSHOT.png]

Prints one line per problem and exits 1 when there is any:
- two text labels of one SVG whose bounding boxes overlap;
- a label of the flow graph without a plate drawn under it, or reaching outside it;
- an SVG wider than the viewport or reaching past its right edge;
- a message in the browser console at level SEVERE.
Exits 0 with no output when the page is clean. Test side only.
"""
import sys

import headless

WIDTH, HEIGHT = 1400, 1000

# Every <text> of every SVG, as boxes in page pixels, with the index of its SVG.
COLLECT = """
const result = {viewport: document.documentElement.clientWidth, svgs: [], labels: [], plates: []};
document.querySelectorAll('svg').forEach((svg, index) => {
  const box = svg.getBoundingClientRect();
  result.svgs.push({index, left: box.left + window.scrollX, right: box.right + window.scrollX,
                    name: svg.getAttribute('aria-label') || ''});
  svg.querySelectorAll('text').forEach(text => {
    const r = text.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return;
    result.labels.push({svg: index, text: text.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom});
    if (svg.classList.contains('flow') && text.classList.contains('label')) {
      const plate = text.previousElementSibling;
      const p = plate && plate.classList.contains('plate') ? plate.getBoundingClientRect() : null;
      result.plates.push({svg: index, text: text.textContent, inner: {left: r.left, right: r.right, top: r.top, bottom: r.bottom},
                          outer: p && {left: p.left, right: p.right, top: p.top, bottom: p.bottom}});
    }
  });
});
return result;
"""

# Boxes that touch by less than this (pixels) do not count as overlapping: glyph boxes
# include the font's line gap.
TOLERANCE = 1.0


def overlaps(a, b):
    return (min(a["right"], b["right"]) - max(a["left"], b["left"]) > TOLERANCE and
            min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > TOLERANCE)


def main():
    report, screenshot = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else None)
    driver = headless.start(WIDTH, HEIGHT, logs=("browser",))
    problems = []
    try:
        driver.get("file://" + report)
        page = driver.execute_script(COLLECT)
        if not page["svgs"]:
            problems.append("no SVG on the page")
        for svg in page["svgs"]:
            if svg["left"] < 0 or svg["right"] > page["viewport"] + 0.5:
                problems.append(f"SVG {svg['index']} ({svg['name']}) spans {svg['left']:.0f}–{svg['right']:.0f}px, "
                                f"outside the viewport's {page['viewport']}px")
        labels = page["labels"]
        for i, first in enumerate(labels):
            for second in labels[i + 1:]:
                if first["svg"] == second["svg"] and overlaps(first, second):
                    problems.append(f"SVG {first['svg']}: labels overlap: {first['text']!r} and {second['text']!r}")
        for plate in page["plates"]:
            inner, outer = plate["inner"], plate["outer"]
            if outer is None:
                problems.append(f"SVG {plate['svg']}: label {plate['text']!r} has no plate under it")
            elif (inner["left"] < outer["left"] - TOLERANCE or inner["right"] > outer["right"] + TOLERANCE or
                    inner["top"] < outer["top"] - TOLERANCE or inner["bottom"] > outer["bottom"] + TOLERANCE):
                problems.append(f"SVG {plate['svg']}: label {plate['text']!r} reaches outside its plate")
        for entry in driver.get_log("browser"):
            if entry["level"] == "SEVERE":
                problems.append(f"console error: {entry['message']}")
        if screenshot:
            height = driver.execute_script("return document.documentElement.scrollHeight")
            driver.set_window_size(WIDTH, height)
            driver.save_screenshot(screenshot)
    finally:
        driver.quit()
    headless.finish(problems)


if __name__ == "__main__":
    main()
