#!/usr/bin/env python3
"""Baselines C and D of scripts/bench: DuckDB over baseline A's rows stored as Parquet (zstd).

Benchmark code, never part of the product. Two commands, each run by navlog-bench in a child
process:

    bench_duckdb.py convert ROWS.sqlite ROWS.parquet
        Writes the `event` table of baseline A (plain SQLite rows) as Parquet, zstd level 19,
        through a CSV that the sqlite3 CLI prints (DuckDB's sqlite extension would need a
        download). Prints one JSON line: rows, bytes, seconds.

    bench_duckdb.py ndjson EVENTS.ndjson ROWS.parquet
        Writes the events of `navlog export --format ndjson` as the same Parquet file: baseline
        A's columns (times in nanoseconds, the payload as JSON text, run, session and the rest as
        text), zstd level 19. For the explore journals of the four apps, whose events are not
        generated as rows. Prints one JSON line: rows, bytes, seconds.

    bench_duckdb.py query ROWS.parquet QUERY.sql OUTPUT
        Runs the bench's report SQL (written for SQLite: json_extract, instr, window functions;
        json_extract becomes json_extract_string, DuckDB's name for the same) over the Parquet file with DuckDB's default threads, writes the result rows to OUTPUT as
        tab-separated text, and prints one JSON line: rows, seconds (the query alone, from
        connecting to the last row fetched; the interpreter's start and `import duckdb` are not
        counted, which favours DuckDB), threads.

Both conversions keep their Parquet file in a cache (NAVLOG_BENCH_CACHE, else
$XDG_CACHE_HOME/navlog-bench, else ~/.cache/navlog-bench; NAVLOG_BENCH_CACHE=off disables it),
keyed by the SHA-256 of the input file and of this script: zstd level 19 takes minutes over
10M rows, and the bench's seeded workload gives the same rows every run. A cached file is
counted again before it is used; the JSON line then says "cached": true and its seconds are
the copy's.

Exit 0 on success, 2 with a one-line error naming the file when something cannot run.
"""

import calendar
import csv as csv_module
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

TEXT_COLUMNS = {"run", "session", "kind", "subject", "screen", "parent", "payload"}


def fail(message):
    print(f"bench_duckdb: {message}", file=sys.stderr)
    sys.exit(2)


def load_duckdb():
    try:
        import duckdb  # noqa: PLC0415 (bench-side, installed by scripts/bench)
    except ImportError:
        fail("the duckdb Python package is missing; scripts/bench installs it (python3 -m pip install duckdb)")
    return duckdb


def literal(text):
    """`text` as an SQL string literal."""
    return "'" + text.replace("'", "''") + "'"


def cache_directory():
    """Where converted Parquet files are kept, or None when the cache is off."""
    configured = os.environ.get("NAVLOG_BENCH_CACHE")
    if configured == "off":
        return None
    if configured:
        return configured
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "navlog-bench")


def cache_key(command, source):
    """The SHA-256 of the command, this script and the file `source`, in hex."""
    digest = hashlib.sha256(command.encode())
    with open(__file__, "rb") as script:
        digest.update(script.read())
    try:
        with open(source, "rb") as data:
            while chunk := data.read(1 << 22):
                digest.update(chunk)
    except OSError as error:
        fail(f"{source}: {error.strerror}")
    return digest.hexdigest()


def cached_conversion(command, source, parquet, convert):
    """Runs `convert()` (which writes `parquet` and returns its row count) unless the cache
    holds the result for `source`; prints the JSON line either way."""
    start = time.monotonic()
    directory = cache_directory()
    key = cache_key(command, source) if directory else None
    cached = os.path.join(directory, key + ".parquet") if directory else None
    if cached and os.path.exists(cached):
        shutil.copyfile(cached, parquet)
        duckdb = load_duckdb()
        count = duckdb.connect().execute("SELECT count(*) FROM read_parquet(?)", [parquet]).fetchone()[0]
        print(json.dumps({"rows": count, "bytes": os.path.getsize(parquet), "seconds": time.monotonic() - start, "cached": True}))
        return
    count = convert()
    if cached:
        os.makedirs(directory, exist_ok=True)
        partial = cached + ".partial"
        shutil.copyfile(parquet, partial)
        os.replace(partial, cached)
    print(json.dumps({"rows": count, "bytes": os.path.getsize(parquet), "seconds": time.monotonic() - start, "cached": False}))


def table_columns(rows):
    """The columns of baseline A's `event` table, in order, as the sqlite3 CLI reports them."""
    result = subprocess.run(["sqlite3", rows, "SELECT name FROM pragma_table_info('event')"], capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"{rows}: sqlite3 could not read the event table: {result.stderr.strip()}")
    return [line for line in result.stdout.splitlines() if line]


def convert(rows, parquet):
    cached_conversion("convert", rows, parquet, lambda: convert_rows(rows, parquet))


def convert_rows(rows, parquet):
    duckdb = load_duckdb()
    columns = table_columns(rows)
    if not columns:
        fail(f"{rows}: no event table")
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(parquet))) as scratch:
        csv = os.path.join(scratch, "rows.csv")
        with open(csv, "w") as output:
            result = subprocess.run(["sqlite3", "-csv", "-header", rows, "SELECT * FROM event ORDER BY rowid"], stdout=output, stderr=subprocess.PIPE, text=True)
        if result.returncode != 0:
            fail(f"{rows}: sqlite3 -csv failed: {result.stderr.strip()}")
        return csv_to_parquet(duckdb, csv, columns, parquet)


def csv_to_parquet(duckdb, csv, columns, parquet):
    """Writes the CSV file `csv` (a header of `columns`) as Parquet, zstd level 19, each column
    typed as SQLite would hold it (text stays text, numbers are BIGINT); returns its row count."""
    connection = duckdb.connect()
    types = {name: ("VARCHAR" if name in TEXT_COLUMNS else "BIGINT") for name in columns}
    connection.execute(
        f"COPY (SELECT * FROM read_csv({literal(csv)}, header = true, columns = {types!r}, quote = '\"', escape = '\"')) "
        f"TO {literal(parquet)} (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 19)"
    )
    return connection.execute("SELECT count(*) FROM read_parquet(?)", [parquet]).fetchone()[0]


ROW_COLUMNS = ["seq", "time_ns", "mono_ns", "run", "session", "session_seq", "kind", "subject", "screen", "cause", "parent", "payload"]


def nanoseconds(time_text, path, number):
    """Nanoseconds since 1970 of an RFC 3339 UTC time with up to nine fraction digits."""
    try:
        whole, _, fraction = time_text.rstrip("Z").partition(".")
        seconds = calendar.timegm(time.strptime(whole, "%Y-%m-%dT%H:%M:%S"))
        return seconds * 1_000_000_000 + int((fraction + "000000000")[:9])
    except ValueError:
        fail(f"{path}:{number}: time {time_text!r} is not RFC 3339 UTC")


def ndjson_to_parquet(events, parquet):
    cached_conversion("ndjson", events, parquet, lambda: convert_ndjson(events, parquet))


def convert_ndjson(events, parquet):
    duckdb = load_duckdb()
    with tempfile.TemporaryDirectory(dir=os.path.dirname(os.path.abspath(parquet))) as scratch:
        csv = os.path.join(scratch, "rows.csv")
        try:
            source = open(events)
        except OSError as error:
            fail(f"{events}: {error.strerror}")
        with source, open(csv, "w", newline="") as output:
            writer = csv_module.writer(output)
            writer.writerow(ROW_COLUMNS)
            for number, line in enumerate(source, 1):
                try:
                    event = json.loads(line)
                except ValueError as error:
                    fail(f"{events}:{number}: not JSON ({error})")
                missing = [key for key in ("seq", "time", "mono_ns", "run", "session", "session_seq", "kind", "subject") if key not in event]
                if missing:
                    fail(f"{events}:{number}: the event has no {', '.join(missing)}")
                payload = json.dumps(event.get("payload", {}), separators=(",", ":"), sort_keys=True, ensure_ascii=False)
                writer.writerow([event["seq"], nanoseconds(event["time"], events, number), event["mono_ns"], event["run"], event["session"],
                                 event["session_seq"], event["kind"], event["subject"], event.get("screen"), event.get("cause"),
                                 event.get("parent"), payload])
        return csv_to_parquet(duckdb, csv, ROW_COLUMNS, parquet)


def query(parquet, sql_path, output):
    duckdb = load_duckdb()
    try:
        sql = open(sql_path).read()
    except OSError as error:
        fail(f"{sql_path}: {error.strerror}")
    # The one word of dialect: SQLite's json_extract gives a JSON string as text, which DuckDB's
    # json_extract_string does (its json_extract gives JSON, which `screen` would be cast to).
    sql = sql.replace("json_extract(", "json_extract_string(")
    start = time.monotonic()
    connection = duckdb.connect()
    connection.execute(f"CREATE VIEW event AS SELECT * FROM read_parquet({literal(parquet)})")
    rows = connection.execute(sql).fetchall()
    seconds = time.monotonic() - start
    threads = connection.execute("SELECT current_setting('threads')").fetchone()[0]
    with open(output, "w") as file:
        for row in rows:
            file.write("\t".join("" if value is None else str(value) for value in row) + "\n")
    print(json.dumps({"rows": len(rows), "seconds": seconds, "threads": threads}))


def main(argv):
    if len(argv) == 3 and argv[0] == "convert":
        convert(argv[1], argv[2])
    elif len(argv) == 3 and argv[0] == "ndjson":
        ndjson_to_parquet(argv[1], argv[2])
    elif len(argv) == 4 and argv[0] == "query":
        query(argv[1], argv[2], argv[3])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(64)


if __name__ == "__main__":
    main(sys.argv[1:])
