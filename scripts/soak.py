#!/usr/bin/env python3
"""A memory soak of navlogd (run through `scripts/faults --soak`; not part of CI).

Starts the given navlogd on a free loopback port with its journal in a temporary directory,
then drives it from a few client threads, each repeating: create a master-detail session,
post 10 actions, delete the session. Samples the daemon's resident memory and open file
descriptors (/proc/PID/status, /proc/PID/fd) before the load, every minute and at the end,
counts requests and journal events (and the events queued for the journal writer), stops the
daemon with SIGTERM, verifies the journal and prints the figures. The last line is one JSON
object with every figure.
"""

import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

# One round of actions on master-detail (detail pushed): each is valid where it is sent.
ACTIONS = [
    {"element": "next-day"},
    {"element": "open-detail"},
    {"element": "toggle-pinned"},
    {"type": "back"},
    {"element": "previous-day"},
    {"element": "open-detail"},
    {"element": "close-detail"},
    {"element": "open-about"},
    {"type": "back"},
    {"element": "next-day"},
]


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def process_figures(pid):
    """Resident and peak resident memory (KiB) and open descriptors of `pid`."""
    figures = {}
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile", "Threads"):
                figures[key] = int(value.split()[0])
    figures["fds"] = len(os.listdir(f"/proc/{pid}/fd"))
    return figures


class Counters:
    def __init__(self):
        self.lock = threading.Lock()
        self.requests = 0
        self.sessions = 0
        self.failures = []

    def add(self, requests, sessions=0):
        with self.lock:
            self.requests += requests
            self.sessions += sessions

    def fail(self, message):
        with self.lock:
            if len(self.failures) < 20:
                self.failures.append(message)


def client(port, stop, counters):
    """Create / 10 actions / delete until `stop` is set, on one keep-alive connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def send(method, path, body=None):
        payload = None if body is None else json.dumps(body).encode()
        connection.request(method, path, body=payload, headers={"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
        return response.status, data

    while not stop.is_set():
        try:
            status, data = send("POST", "/v1/sessions", {"app": "master-detail"})
            if status != 201:
                counters.fail(f"create: {status} {data[:200]!r}")
                counters.add(1)
                continue
            session = json.loads(data)["id"]
            for action in ACTIONS:
                status, data = send("POST", f"/v1/sessions/{session}/actions", action)
                if status != 200:
                    counters.fail(f"action {action}: {status} {data[:200]!r}")
            status, data = send("DELETE", f"/v1/sessions/{session}")
            if status != 200:
                counters.fail(f"delete: {status} {data[:200]!r}")
            counters.add(len(ACTIONS) + 2, sessions=1)
        except (OSError, http.client.HTTPException) as error:
            counters.fail(f"transport: {error}")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)


class QueueWatch:
    """The most events waiting for the journal writer, read from /metrics every second."""

    def __init__(self, port, stop):
        self.lock = threading.Lock()
        self.most = 0
        threading.Thread(target=self.watch, args=(port, stop), daemon=True).start()

    def watch(self, port, stop):
        while not stop.wait(1.0):
            try:
                depth = int(metric(port, "navlog_journal_queue_depth") or 0)
            except (OSError, http.client.HTTPException):
                continue
            with self.lock:
                self.most = max(self.most, depth)

    def take_max(self):
        """The most seen since the last call."""
        with self.lock:
            most, self.most = self.most, 0
        return most


def metric(port, name):
    """One unlabelled sample of /metrics."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", "/metrics")
    text = connection.getresponse().read().decode()
    connection.close()
    for line in text.splitlines():
        if line.startswith(name + " "):
            return float(line.split()[1])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--navlogd", required=True, help="the navlogd binary (a release build)")
    parser.add_argument("--navlog", required=True, help="the navlog binary, for `navlog verify`")
    parser.add_argument("--seconds", type=int, default=1200, help="how long to load the daemon (default 1200)")
    parser.add_argument("--clients", type=int, default=4, help="client threads (default 4)")
    parser.add_argument("--sample-seconds", type=int, default=60, help="seconds between samples (default 60)")
    arguments = parser.parse_args()
    if arguments.seconds < 1 or arguments.clients < 1 or arguments.sample_seconds < 1:
        parser.error("--seconds, --clients and --sample-seconds must be at least 1")

    work = tempfile.mkdtemp(prefix="navlog-soak-")
    port = free_port()
    journal = os.path.join(work, "journal")
    with open(os.path.join(work, "navlogd.json"), "w") as config:
        json.dump({
            "journal": {"directory": journal},
            "listen": {"unix_socket": None, "tcp": {"host": "127.0.0.1", "port": port}},
        }, config)
    log = open(os.path.join(work, "navlogd.log"), "w+")
    daemon = subprocess.Popen([arguments.navlogd, "--config", os.path.join(work, "navlogd.json")],
                              stdout=subprocess.DEVNULL, stderr=log)
    try:
        # Ready once it logs that it listens.
        deadline = time.monotonic() + 30
        while "msg=listening" not in open(log.name).read():
            if daemon.poll() is not None or time.monotonic() > deadline:
                sys.exit(f"soak: navlogd did not start: {open(log.name).read()}")
            time.sleep(0.05)

        samples = []

        def sample(label, elapsed):
            figures = process_figures(daemon.pid)
            figures.update(label=label, elapsed_s=round(elapsed), requests=counters.requests, sessions=counters.sessions,
                           events=int(metric(port, "navlog_journal_events_recorded_total") or 0),
                           queue=queue.take_max())
            samples.append(figures)
            print(f"soak: {label:>6} {figures['elapsed_s']:5d} s  RSS {figures['VmRSS'] / 1024:5.1f} MB "
                  f"(anonymous {figures['RssAnon'] / 1024:5.1f}, files {figures['RssFile'] / 1024:5.1f})  "
                  f"peak {figures['VmHWM'] / 1024:5.1f} MB  fds {figures['fds']:3d}  threads {figures['Threads']:3d}  "
                  f"requests {figures['requests']:8d}  sessions {figures['sessions']:7d}  events {figures['events']:9d}  "
                  f"queued at most {figures['queue']:5d}",
                  flush=True)

        counters = Counters()
        stop = threading.Event()
        queue = QueueWatch(port, stop)
        sample("start", 0)
        started = time.monotonic()
        threads = [threading.Thread(target=client, args=(port, stop, counters), daemon=True) for _ in range(arguments.clients)]
        for thread in threads:
            thread.start()
        middle_taken = False
        next_sample = arguments.sample_seconds
        while True:
            elapsed = time.monotonic() - started
            if elapsed >= arguments.seconds:
                break
            if not middle_taken and elapsed >= arguments.seconds / 2:
                sample("middle", elapsed)
                middle_taken = True
                while next_sample <= elapsed + 1:
                    next_sample += arguments.sample_seconds
            elif elapsed >= next_sample:
                sample("minute", elapsed)
                next_sample += arguments.sample_seconds
            else:
                time.sleep(min(1.0, max(0.01, min(next_sample, arguments.seconds) - elapsed)))
        stop.set()
        for thread in threads:
            thread.join(60)
        sample("end", time.monotonic() - started)
        elapsed = time.monotonic() - started

        daemon.send_signal(signal.SIGTERM)
        status = daemon.wait(60)
        log.seek(0)
        stopped = [line for line in log.read().splitlines() if "msg=stopped" in line]
        verify = subprocess.run([arguments.navlog, "verify", journal], capture_output=True, text=True)
        verified = verify.stdout.strip().splitlines()[-1] if verify.stdout.strip() else verify.stderr.strip()
        journaled = int(verified.split(" readable event")[0].split()[-1]) if " readable event" in verified else None

        start, middle, end = samples[0], next((s for s in samples if s["label"] == "middle"), samples[-1]), samples[-1]
        # Whether it plateaus: the highest RSS of each half of the load (a sample at the end of
        # a journal file can be lower than the one before, so one pair of samples says little).
        loaded = samples[1:]
        first_half = [s["VmRSS"] for s in loaded if s["elapsed_s"] < arguments.seconds / 2] or [start["VmRSS"]]
        second_half = [s["VmRSS"] for s in loaded if s["elapsed_s"] >= arguments.seconds / 2] or [end["VmRSS"]]
        print(f"soak: {counters.requests} requests ({counters.requests / elapsed:.0f}/s) from {arguments.clients} clients, "
              f"{counters.sessions} sessions, {len(counters.failures)} failure(s); navlogd exit {status}; {stopped[0] if stopped else 'no stop line'}")
        print(f"soak: verify: {verified} (exit {verify.returncode})")
        print(f"soak: RSS start {start['VmRSS'] / 1024:.1f} MB, middle {middle['VmRSS'] / 1024:.1f} MB, end {end['VmRSS'] / 1024:.1f} MB; "
              f"highest in the first half {max(first_half) / 1024:.1f} MB, in the second {max(second_half) / 1024:.1f} MB; "
              f"fds start {start['fds']}, middle {middle['fds']}, end {end['fds']}")
        for failure in counters.failures:
            print(f"soak: failure: {failure}")
        print(json.dumps({
            "seconds": round(elapsed), "clients": arguments.clients, "requests": counters.requests, "sessions": counters.sessions,
            "events": journaled, "failures": len(counters.failures), "exit": status, "verify_exit": verify.returncode,
            "rss_kb": {"start": start["VmRSS"], "middle": middle["VmRSS"], "end": end["VmRSS"],
                       "first_half_max": max(first_half), "second_half_max": max(second_half)},
            "fds": {"start": start["fds"], "middle": middle["fds"], "end": end["fds"]},
            "samples": [{"elapsed_s": s["elapsed_s"], "rss_kb": s["VmRSS"], "anonymous_kb": s["RssAnon"], "peak_kb": s["VmHWM"],
                         "fds": s["fds"], "queued_at_most": s["queue"]} for s in samples],
        }))
        return 0 if status == 0 and verify.returncode == 0 and not counters.failures else 1
    finally:
        if daemon.poll() is None:
            daemon.kill()
            daemon.wait()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
