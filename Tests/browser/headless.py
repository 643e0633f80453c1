"""Headless Chromium through Selenium with Debian's chromium-driver, for the browser checks.

Test side only.
"""
from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start(width, height, logs=("browser",)):
    """Starts headless Chromium with a window of `width` x `height` that records the `logs`
    (`browser` for the console, `performance` for the network)."""
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}"):
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {log: "ALL" for log in logs})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def finish(problems):
    """Prints one line per problem and exits 1 when there is any, 0 otherwise."""
    import sys
    for problem in problems:
        print(problem)
    sys.exit(1 if problems else 0)
