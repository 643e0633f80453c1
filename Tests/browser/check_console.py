"""Drives navlogd's web console in headless Chromium (Selenium with Debian's chromium-driver).

Usage: python3 check_console.py BASE_URL MODE [TOKEN]

BASE_URL is the daemon's http://127.0.0.1:PORT. MODE:
- `actions`: the daemon runs with ui.allow_actions true. The console lists a session created
  over the API within 1 s and drops one ended over the API within 1 s; on a session's page a
  click on a button shows the new screen and the action in the timeline; a hostile app string
  (markup, quotes, RTL marks, 10 KB) typed into a field shows as text and runs nothing.
- `read-only`: the daemon runs with ui.allow_actions false. The page's own fetch of an action
  is refused (403 console_actions_disabled) and the screen stays as it was.
- `login`: the daemon has the token TOKEN. /ui is the login form; a wrong token is refused,
  the right one logs in, and the console lists sessions and frames the journeys report.
In each, the browser console has no error and every request went to BASE_URL.

Prints one line per problem and exits 1 when there is any. Test side only.
"""
import json
import sys
import time
import urllib.request

import headless
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WIDTH, HEIGHT = 1400, 900
# The bound the issue sets for a session to appear in (or leave) the list.
LIVE_BOUND_SECONDS = 1.0
HOSTILE = ("<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=2\"> 'quoted' \"double\" "
           "\u202eRTL\u202c \u200f" + "x" * 10_240)


def api(base, method, path, body=None, token=None):
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(request) as response:
        return json.loads(response.read())


def wait(driver, condition, bound=10):
    """Waits for `condition(driver)` to be truthy, polling; returns its value or None."""
    try:
        return WebDriverWait(driver, bound, poll_frequency=0.02, ignored_exceptions=[StaleElementReferenceException]).until(condition)
    except Exception:
        return None


def click(driver, selector):
    """Clicks the element of `selector`; the page redraws the screen after events, so an
    element found may be replaced before the click lands: find it again then."""
    for _ in range(20):
        try:
            driver.find_element(By.CSS_SELECTOR, selector).click()
            return
        except StaleElementReferenceException:
            continue
    raise RuntimeError(f"{selector} kept being replaced")


def session_row(driver, session):
    return driver.find_elements(By.CSS_SELECTOR, f'#sessions-body tr[data-session="{session}"]')


def check_listing(driver, base, problems):
    """A session created over the API is listed within 1 s; one ended leaves within 1 s."""
    driver.get(base + "/ui")
    wait(driver, lambda d: d.find_element(By.ID, "status").text == "live")
    created = api(base, "POST", "/v1/sessions", {"app": "master-detail"})["id"]
    start = time.monotonic()
    if not wait(driver, lambda d: session_row(d, created), bound=5):
        problems.append(f"session {created} was never listed")
    elif time.monotonic() - start > LIVE_BOUND_SECONDS:
        problems.append(f"session {created} was listed after {time.monotonic() - start:.2f} s, more than {LIVE_BOUND_SECONDS} s")
    ended = api(base, "POST", "/v1/sessions", {"app": "tabs"})["id"]
    wait(driver, lambda d: session_row(d, ended), bound=5)
    api(base, "DELETE", f"/v1/sessions/{ended}")
    start = time.monotonic()
    if not wait(driver, lambda d: not session_row(d, ended), bound=5):
        problems.append(f"ended session {ended} stayed listed")
    elif time.monotonic() - start > LIVE_BOUND_SECONDS:
        problems.append(f"ended session {ended} left the list after {time.monotonic() - start:.2f} s")
    cells = driver.execute_script("return Array.from(document.querySelector(`#sessions-body tr[data-session='${arguments[0]}']`).cells)"
                                  ".map(cell => cell.textContent)", created)
    listed = next(item for item in api(base, "GET", "/v1/sessions")["sessions"] if item["id"] == created)
    if cells[1:4] != [listed["app"], listed["run"], listed["screen"]] or cells[0] != created:
        problems.append(f"the row of {created} reads {cells}, the API lists {listed}")
    return created


def open_session(driver, base, session):
    driver.get(base + "/ui#/sessions/" + session)
    return wait(driver, lambda d: d.find_element(By.ID, "screen-name").text or None)


def check_click(driver, base, session, problems):
    """A click on a button shows the new screen and the action in the timeline."""
    before = open_session(driver, base, session)
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#timeline li[data-kind="session.start"]'))
    click(driver, 'button[data-element="open-detail"]')
    after = wait(driver, lambda d: (d.find_element(By.ID, "screen-name").text != before) and d.find_element(By.ID, "screen-name").text)
    if not after:
        problems.append(f"the screen stayed {before} after clicking open-detail")
    elif after != api(base, "GET", f"/v1/sessions/{session}")["state"]["visible"]["id"]:
        problems.append(f"the console shows {after}, the API another screen")
    actions = wait(driver, lambda d: [item.text for item in d.find_elements(By.CSS_SELECTOR, '#timeline li[data-kind="action"]')])
    if not actions or "open-detail" not in actions[-1]:
        problems.append(f"the timeline shows no action on open-detail: {actions}")


def check_hostile(driver, base, problems):
    """A hostile string typed into content-list's search field shows as text and runs nothing."""
    session = api(base, "POST", "/v1/sessions", {"app": "content-list"})["id"]
    api(base, "POST", f"/v1/sessions/{session}/actions", {"element": "search", "value": HOSTILE})
    open_session(driver, base, session)
    # Read in one script: the screen may be redrawn between finding the field and reading it.
    value = "return (document.querySelector('input[data-element=\"search\"]') || {}).value"
    if not wait(driver, lambda d: d.execute_script(value) == HOSTILE):
        problems.append("the search field does not hold the hostile string as its value")
    texts = driver.execute_script("return Array.from(document.querySelectorAll('#screen .el-text')).map(e => e.textContent)")
    if not any(HOSTILE in text for text in texts):
        problems.append("the hostile string is not shown as text on the screen")
    wait(driver, lambda d: d.find_elements(By.CSS_SELECTOR, '#timeline li[data-kind="action"]'))
    injected = driver.execute_script(
        "return [window.__pwned, document.querySelectorAll('main script, main img').length,"
        " Array.from(document.querySelectorAll('#timeline li')).some(li => li.textContent.includes('<script>window.__pwned=1</script>'))]")
    if injected[0] is not None:
        problems.append(f"the hostile string ran: window.__pwned = {injected[0]}")
    if injected[1] != 0:
        problems.append(f"the hostile string made {injected[1]} script or img elements")
    if not injected[2]:
        problems.append("the timeline does not show the hostile action's value as text")


def check_read_only(driver, base, problems):
    """With ui.allow_actions false, the page's own request to act is refused by the daemon."""
    session = api(base, "POST", "/v1/sessions", {"app": "master-detail"})["id"]
    before = open_session(driver, base, session)
    if driver.execute_script("return !document.querySelector('button[data-element=\"open-detail\"]').disabled"):
        problems.append("a button is enabled although actions are off")
    answer = driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        fetch('/v1/sessions/' + arguments[0] + '/actions', {method: 'POST', headers: {'Content-Type': 'application/json'},
              body: JSON.stringify({element: 'open-detail'})})
          .then(r => r.json().then(body => done([r.status, body.error])));
    """, session)
    if answer != [403, "console_actions_disabled"]:
        problems.append(f"the page's action was answered {answer}, expected [403, 'console_actions_disabled']")
    now = api(base, "GET", f"/v1/sessions/{session}")["state"]["visible"]["id"]
    if now != before:
        problems.append(f"the session moved from {before} to {now} although actions are off")


def check_login(driver, base, token, problems):
    """With a token, /ui is the login form; the right token logs in, and the cookie it sets
    opens the API to the page: the session list, its stream, and the framed report."""
    created = api(base, "POST", "/v1/sessions", {"app": "tabs"}, token)["id"]
    driver.get(base + "/ui")
    if not wait(driver, lambda d: d.find_elements(By.ID, "token")):
        problems.append("/ui without the token shows no login form")
        return
    driver.find_element(By.ID, "token").send_keys("not-the-token")
    driver.find_element(By.CSS_SELECTOR, "form button").click()
    if not wait(driver, lambda d: "not the daemon" in d.find_element(By.TAG_NAME, "main").text):
        problems.append("a wrong token was not refused on the login form")
    driver.find_element(By.ID, "token").send_keys(token)
    driver.find_element(By.CSS_SELECTOR, "form button").click()
    if not wait(driver, lambda d: session_row(d, created)):
        problems.append(f"after logging in the console does not list {created}")
    if any(part.strip().startswith("navlog_console=") for part in driver.execute_script("return document.cookie").split(";")):
        problems.append("the login cookie can be read by scripts")
    cookies = [cookie for cookie in driver.get_cookies() if cookie["name"] == "navlog_console"]
    if len(cookies) != 1 or not cookies[0].get("httpOnly") or cookies[0].get("sameSite") != "Strict":
        problems.append(f"the login cookie is not one HttpOnly, SameSite=Strict cookie: {cookies}")
    driver.get(base + "/ui#/journeys")
    if not wait(driver, lambda d: d.find_element(By.ID, "report-status").text.startswith("rendered")):
        problems.append("the journeys report did not load after logging in")
    driver.switch_to.frame(driver.find_element(By.ID, "report"))
    heading = driver.find_element(By.TAG_NAME, "h1").text
    driver.switch_to.default_content()
    if not heading.startswith("navlogd journeys"):
        problems.append(f"the framed report reads {heading!r}, not the journeys report")


def check_clean(driver, base, problems, expected=()):
    """No console error but the `expected` ones; every request the browser made went to the daemon."""
    for entry in driver.get_log("browser"):
        if entry["level"] == "SEVERE" and not any(text in entry["message"] for text in expected):
            problems.append(f"console error: {entry['message']}")
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message["method"] == "Network.requestWillBeSent":
            url = message["params"]["request"]["url"]
            if not (url.startswith(base + "/") or url.startswith("data:")):
                problems.append(f"a request left the daemon: {url}")


def main():
    base, mode = sys.argv[1].rstrip("/"), sys.argv[2]
    driver = headless.start(WIDTH, HEIGHT, logs=("browser", "performance"))
    driver.set_script_timeout(10)
    problems = []
    try:
        if mode == "actions":
            session = check_listing(driver, base, problems)
            check_click(driver, base, session, problems)
            check_hostile(driver, base, problems)
            check_clean(driver, base, problems)
        elif mode == "read-only":
            check_read_only(driver, base, problems)
            # The refusal the check provokes is logged by Chromium as a failed load: that one only.
            check_clean(driver, base, problems, expected=["/actions - Failed to load resource: the server responded with a status of 403"])
        elif mode == "login":
            check_login(driver, base, sys.argv[3], problems)
            # The login form is answered 401 (with a wrong token too), which Chromium logs.
            check_clean(driver, base, problems, expected=["/ui - Failed to load resource: the server responded with a status of 401",
                                                          "/ui/login - Failed to load resource: the server responded with a status of 401"])
        else:
            problems.append(f"unknown mode {mode}: actions, read-only or login")
    finally:
        driver.quit()
    headless.finish(problems)


if __name__ == "__main__":
    main()
