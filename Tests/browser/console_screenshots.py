"""Takes the screenshots of navlogd's web console that docs/ and the README show.

Usage: python3 console_screenshots.py BASE_URL TOKEN_BASE_URL DIRECTORY

BASE_URL is a navlogd with ui.allow_actions true and the content-list app enabled;
TOKEN_BASE_URL one with a token (for the login form). Writes console-sessions.png,
console-session.png, console-journeys.png and console-login.png into DIRECTORY. Test side only.
"""
import sys

import headless
from check_console import api, open_session, session_row, wait
from selenium.webdriver.common.by import By


def populate(base):
    """A few sessions of different apps, one of them searched so its timeline has -/+ lines."""
    for app in ("master-detail", "tabs", "articles"):
        api(base, "POST", "/v1/sessions", {"app": app})
    api(base, "POST", "/v1/sessions/s-1/actions", {"element": "open-detail"})
    api(base, "POST", "/v1/sessions/s-2/actions", {"type": "select_tab", "tab": "Settings"})
    searched = api(base, "POST", "/v1/sessions", {"app": "content-list"})["id"]
    api(base, "POST", f"/v1/sessions/{searched}/actions", {"element": "search", "value": "swift"})
    return searched


def main():
    base, token_base, directory = sys.argv[1].rstrip("/"), sys.argv[2].rstrip("/"), sys.argv[3]
    searched = populate(base)
    driver = headless.start(1400, 900)
    try:
        driver.get(base + "/ui")
        wait(driver, lambda d: session_row(d, searched))
        driver.save_screenshot(directory + "/console-sessions.png")
        open_session(driver, base, searched)
        wait(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, '#timeline li[data-kind="viewmodel.change"]')) > 0)
        driver.find_element(By.CSS_SELECTOR, 'input[data-element="search"]').click()
        driver.save_screenshot(directory + "/console-session.png")
        driver.get(base + "/ui#/journeys")
        wait(driver, lambda d: d.find_element(By.ID, "report-status").text.startswith("rendered"))
        driver.save_screenshot(directory + "/console-journeys.png")
        driver.set_window_size(900, 520)
        driver.get(token_base + "/ui")
        wait(driver, lambda d: d.find_elements(By.ID, "token"))
        driver.save_screenshot(directory + "/console-login.png")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
