#!/usr/bin/env python3
"""Calibrates `navlog diff` on explored runs of the sample apps (run through scripts/calibrate).

Each pair is two `navlog explore APP --steps 30 --sessions 40` runs with disjoint seeds, the base
and the candidate, then `navlog diff BASE CANDIDATE -o json`. Per app:

- same configuration on both sides: how often the diff raises a false alarm (exits 1);
- `-p inject=leak` and `-p inject=double_push` on the candidate: how often it detects them;
- a latency parameter raised by 30% on the candidate (articles: latency_ms 100 -> 130): how
  often the `load` family detects it.

Prints a table, then one line of JSON. Missed targets are reported, not failed: the exit code is
0 when everything ran, 2 when something could not run (64 for bad arguments). Standard library
only; this is benchmark code, never part of the product.
"""

import argparse
import concurrent.futures
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

STEPS = 30
SESSIONS = 40
TARGET_FALSE_ALARM = 0.05
TARGET_LATENCY = 0.90
TARGET_INJECTED = 0.95
INJECTIONS = ["leak", "double_push"]
LATENCY_APPS = ["articles", "content-list"]
LATENCY_INCREASE = 0.30
# Bases set by the calibration plan; other latency parameters start from their default.
LATENCY_BASES = {("articles", "latency_ms"): 100, ("content-list", "latency_ms"): 100}
# The raw (uncorrected) level at which each gating test's p-values are counted on same-configuration
# pairs: a calibrated test falls below it in about this share of its tests.
RAW_LEVEL = 0.05
# Each experiment of an app numbers its pairs from a block of its own (at least this long), so
# that no two pairs of an app share a seed.
PAIR_BLOCK = 1000


class CalibrationError(Exception):
    """Something the calibration needs could not run; its message names the command or file."""


class UsageError(Exception):
    """A bad argument; its message names the option."""


@dataclass
class Experiment:
    """One row of the table: an app, what differs on the candidate, and how many pairs."""

    app: str
    name: str
    slug: str  # the experiment's directory under the app's
    goal: str  # "false_alarm", "injected" or "latency"
    pairs: int
    first_pair: int
    base_parameters: dict = field(default_factory=dict)
    candidate_parameters: dict = field(default_factory=dict)
    skipped: str = ""
    results: list = field(default_factory=list)


@dataclass
class PairResult:
    """What one pair's diff said: its exit code and the gate families (and structural kinds) that failed."""

    number: int
    exit_code: int
    families: set
    structural_kinds: set
    raw_tests: Counter = field(default_factory=Counter)  # gating family -> tests made
    raw_below: Counter = field(default_factory=Counter)  # gating family -> raw p below RAW_LEVEL


# MARK: - Running navlog


def run(command, what):
    """Runs `command`, returning the completed process; raises CalibrationError if it cannot start."""
    try:
        return subprocess.run(command, capture_output=True, text=True)
    except OSError as error:
        raise CalibrationError(f"{what}: cannot run {command[0]}: {error.strerror}") from error


def first_line(text):
    """The first line of a command's stderr: navlog puts the error there, naming what is at fault."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else "no message"


def list_apps(navlog):
    """Returns `navlog apps -o json`: the apps in catalog order, with their parameters."""
    result = run([navlog, "apps", "-o", "json"], "navlog apps")
    if result.returncode != 0:
        raise CalibrationError(f"navlog apps exited {result.returncode}: {first_line(result.stderr)}")
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError as error:
        raise CalibrationError(f"navlog apps -o json printed no JSON: {error}") from error


def explore(navlog, app, seed, parameters, journal):
    """Records one side: `navlog explore APP --seed SEED` into `journal`. Exit 1 (findings) is fine."""
    command = [navlog, "explore", app, "--seed", str(seed), "--steps", str(STEPS), "--sessions", str(SESSIONS), "--journal", str(journal)]
    for key, value in sorted(parameters.items()):
        command += ["-p", f"{key}={value}"]
    result = run(command, "navlog explore")
    if result.returncode not in (0, 1):
        raise CalibrationError(f"{' '.join(command)} exited {result.returncode}: {first_line(result.stderr)}")


def failed_families(report):
    """The gate families that failed in a diff's JSON report, and the structural kinds among them."""
    families, kinds = set(), set()
    for scenario in report.get("scenarios", []):
        if scenario.get("failure"):
            families.add("exact")
    for finding in report.get("structural", []):
        if finding.get("failure"):
            families.add("structural")
            kinds.add(finding.get("kind", "?"))
    for metric in report.get("metrics", []):
        if metric.get("failure"):
            families.add(metric.get("family", "?"))
    return families, kinds


def raw_p_values(report):
    """Per gating family (structural as `structural`), the tests made and those whose raw p-value is below RAW_LEVEL."""
    tests, below = Counter(), Counter()
    for metric in report.get("metrics", []):
        if metric.get("gating") and metric.get("p_value") is not None:
            tests[metric["family"]] += 1
            below[metric["family"]] += metric["p_value"] < RAW_LEVEL
    for finding in report.get("structural", []):
        if finding.get("gating") and finding.get("p_value") is not None:
            tests["structural"] += 1
            below["structural"] += finding["p_value"] < RAW_LEVEL
    return tests, below


def seeds(number):
    """The seeds of pair `number`'s base and candidate: 50,000 apart, far more than --sessions."""
    return 100_000 * number + 1, 100_000 * number + 50_001


def run_pair(navlog, experiment, number, root, diff_arguments, keep):
    """Runs pair `number` of `experiment` under `root` and returns what its diff said."""
    directory = root / experiment.app / experiment.slug / f"pair-{number}"
    directory.mkdir(parents=True, exist_ok=True)
    base, candidate = directory / "base", directory / "candidate"
    base_seed, candidate_seed = seeds(number)
    explore(navlog, experiment.app, base_seed, experiment.base_parameters, base)
    explore(navlog, experiment.app, candidate_seed, experiment.candidate_parameters, candidate)
    command = [navlog, "diff", str(base), str(candidate), "-o", "json", *diff_arguments]
    result = run(command, "navlog diff")
    if result.returncode not in (0, 1):
        raise CalibrationError(f"{' '.join(command)} exited {result.returncode}: {first_line(result.stderr)}")
    try:
        report = json.loads(result.stdout)
    except json.JSONDecodeError as error:
        raise CalibrationError(f"{' '.join(command)} printed no JSON: {error}") from error
    (directory / "diff.json").write_text(result.stdout)
    if not keep:
        shutil.rmtree(base)
        shutil.rmtree(candidate)
    families, kinds = failed_families(report)
    tests, below = raw_p_values(report)
    return PairResult(number, result.returncode, families, kinds, tests, below)


# MARK: - Planning


def plan(apps, catalog, pairs):
    """The experiments for `apps`: same configuration, each injection, and latency where the app has one."""
    regression_pairs = math.ceil(pairs / 2)
    block = max(PAIR_BLOCK, pairs + 1)
    experiments = []
    for app in apps:
        parameters = {parameter["name"]: parameter for parameter in catalog[app]["parameters"]}
        experiments.append(Experiment(app, "same configuration", "same", "false_alarm", pairs, 1))
        for index, value in enumerate(INJECTIONS, start=1):
            experiment = Experiment(app, f"inject={value}", f"inject-{value}", "injected", regression_pairs, index * block + 1,
                                    candidate_parameters={"inject": value})
            accepts = parameters.get("inject", {}).get("accepts", "")  # "one of none, leak, double_push"
            if value not in accepts.removeprefix("one of ").split(", "):
                experiment.skipped = f"{app} has no inject={value}"
            experiments.append(experiment)
        if app in LATENCY_APPS:
            experiments.append(latency_experiment(app, parameters, regression_pairs, first_pair=(len(INJECTIONS) + 1) * block + 1))
    return experiments


def latency_experiment(app, parameters, pairs, first_pair):
    """Raises every integer parameter of `app` whose name holds `latency` by 30% on the candidate."""
    experiment = Experiment(app, "latency +30%", "latency", "latency", pairs, first_pair)
    names = sorted(name for name, parameter in parameters.items()
                   if "latency" in name and parameter.get("accepts", "").startswith("an integer"))
    changes = []
    for name in names:
        base = LATENCY_BASES.get((app, name), int(parameters[name]["default"]))
        candidate = round(base * (1 + LATENCY_INCREASE))
        if candidate == base:
            continue
        experiment.base_parameters[name] = base
        experiment.candidate_parameters[name] = candidate
        changes.append(f"{name} {base}->{candidate}")
    if changes:
        experiment.name = ", ".join(changes)
    else:
        experiment.skipped = f"{app} has no latency parameter above 0 (navlog apps lists none)"
    return experiment


# MARK: - Results


def rate_of(experiment):
    """The experiment's figure: false alarms or detections (exit 1), or, for latency, `load` failures."""
    results = experiment.results
    if experiment.goal == "latency":
        hits = sum(1 for result in results if "load" in result.families)
    else:
        hits = sum(1 for result in results if result.exit_code == 1)
    return hits / len(results) if results else None


def target_of(experiment):
    if experiment.goal == "false_alarm":
        return "<=", TARGET_FALSE_ALARM
    return ">=", TARGET_LATENCY if experiment.goal == "latency" else TARGET_INJECTED


def meets(experiment, rate):
    relation, target = target_of(experiment)
    return rate <= target if relation == "<=" else rate >= target


def family_counts(results):
    families = Counter(family for result in results for family in result.families)
    kinds = Counter(kind for result in results for kind in result.structural_kinds)
    return families, kinds


def describe_families(families, kinds):
    """`structural 12 (new_dead_end 9, new_smell 4), dwell 3`: pairs failing each family."""
    if not families:
        return "none"
    parts = []
    for family, count in sorted(families.items(), key=lambda item: (-item[1], item[0])):
        text = f"{family} {count}"
        if family == "structural" and kinds:
            text += " (" + ", ".join(f"{kind} {n}" for kind, n in sorted(kinds.items(), key=lambda item: (-item[1], item[0]))) + ")"
        parts.append(text)
    return ", ".join(parts)


def percent(rate):
    return "-" if rate is None else f"{100 * rate:.1f}%"


def print_table(experiments):
    headers = ["app", "experiment", "pairs", "measure", "rate", "target", "", "gate families failed (pairs)"]
    rows = []
    for experiment in experiments:
        if experiment.skipped:
            rows.append([experiment.app, experiment.name, "0", "-", "-", "-", "skip", experiment.skipped])
            continue
        pair_results = experiment.results
        rate = rate_of(experiment)
        relation, target = target_of(experiment)
        measure = {"false_alarm": "false alarms", "injected": "detected", "latency": "detected by load"}[experiment.goal]
        families, kinds = family_counts(pair_results)
        rows.append([
            experiment.app, experiment.name, str(len(pair_results)), measure, percent(rate),
            f"{relation} {100 * target:.0f}%", "pass" if meets(experiment, rate) else "MISS", describe_families(families, kinds),
        ])
    widths = [max(len(row[column]) for row in rows + [headers]) for column in range(len(headers) - 1)]
    for row in [headers] + rows:
        cells = [cell.rjust(widths[i]) if i in (2, 4) else cell.ljust(widths[i]) for i, cell in enumerate(row[:-1])]
        print("  ".join(cells + [row[-1]]).rstrip())


def raw_rates(results):
    """Per gating family: tests made over the pairs, and the share whose raw p-value is below RAW_LEVEL."""
    tests = sum((result.raw_tests for result in results), Counter())
    below = sum((result.raw_below for result in results), Counter())
    return {family: {"tests": tests[family], "share_below": below[family] / tests[family]} for family in sorted(tests)}


def print_raw_rates(experiments):
    """The per-test check behind the false-alarm rate: each gating test alone, before Holm."""
    print()
    print(f"Per test, same configuration: share of raw p-values below {RAW_LEVEL} (a calibrated test: about {100 * RAW_LEVEL:.0f}%;"
          " `load` of screens ready on appearance measures the machine's sub-millisecond jitter, which noise_floor_ms absorbs)")
    for experiment in experiments:
        if experiment.goal != "false_alarm" or experiment.skipped:
            continue
        rates = raw_rates(experiment.results)
        cells = [f"{family} {percent(rate['share_below'])} of {rate['tests']}" for family, rate in rates.items()]
        print(f"  {experiment.app}: " + (", ".join(cells) if cells else "no test made"))


def summary(experiments, pairs):
    """The closing JSON: the three headline figures (worst app first), then each app's details."""
    worst = {"false_alarm": None, "latency": None, "injected": None}
    apps = {}
    for experiment in experiments:
        details = apps.setdefault(experiment.app, {})
        if experiment.skipped:
            details[experiment.name] = {"skipped": experiment.skipped}
            continue
        pair_results = experiment.results
        rate = rate_of(experiment)
        families, kinds = family_counts(pair_results)
        relation, target = target_of(experiment)
        details[experiment.name] = {
            "goal": experiment.goal,
            "pairs": len(pair_results),
            "rate": rate,
            "target": f"{relation} {target}",
            "meets_target": meets(experiment, rate),
            "exit_1": sum(1 for result in pair_results if result.exit_code == 1),
            "families_failed": dict(sorted(families.items())),
            "structural_kinds_failed": dict(sorted(kinds.items())),
            **({"raw_p_below_0_05": raw_rates(pair_results)} if experiment.goal == "false_alarm" else {}),
            "base_parameters": experiment.base_parameters,
            "candidate_parameters": experiment.candidate_parameters,
        }
        pick = max if experiment.goal == "false_alarm" else min
        current = worst[experiment.goal]
        worst[experiment.goal] = rate if current is None else pick(current, rate)
    return {
        "diff_false_alarm_rate": worst["false_alarm"],
        "diff_detection_rate_latency30": worst["latency"],
        "diff_detection_rate_injected": worst["injected"],
        "targets": {"false_alarm_rate_at_most": TARGET_FALSE_ALARM, "latency30_detection_by_load_at_least": TARGET_LATENCY,
                    "injected_detection_at_least": TARGET_INJECTED},
        "steps": STEPS,
        "sessions": SESSIONS,
        "same_configuration_pairs": pairs,
        "regression_pairs": math.ceil(pairs / 2),
        "apps": apps,
    }


def write_pair_records(experiments, path):
    """Writes one JSON line per pair: its experiment, seeds, exit code and failed families."""
    with open(path, "w") as file:
        for experiment in experiments:
            for result in experiment.results:
                base_seed, candidate_seed = seeds(result.number)
                file.write(json.dumps({
                    "app": experiment.app, "experiment": experiment.name, "pair": result.number,
                    "base_seed": base_seed, "candidate_seed": candidate_seed,
                    "exit_code": result.exit_code, "families_failed": sorted(result.families),
                    "structural_kinds_failed": sorted(result.structural_kinds),
                }, sort_keys=True) + "\n")


# MARK: - Main


class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise UsageError(message)


def parse_arguments(argv):
    parser = Parser(
        prog="scripts/calibrate",
        description="Measure navlog diff's false alarms and detections on explored runs of the sample apps "
                    f"({STEPS} steps x {SESSIONS} sessions a side, disjoint seeds). Exit 0 when everything ran, "
                    "2 when something could not run, 64 for bad arguments; missed targets are reported, not failed.",
    )
    parser.add_argument("--navlog", default=".build/release/navlog", help="the navlog binary (scripts/calibrate builds it)")
    parser.add_argument("--pairs", type=int, help="same-configuration pairs per app (default 100, or 4 with --quick); "
                                                  "each regression gets half as many, rounded up")
    parser.add_argument("--apps", help="comma-separated apps to calibrate (default: every app navlog apps lists)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 same-configuration pairs and 2 per regression")
    parser.add_argument("--keep", metavar="DIR", help="keep the journals and each pair's diff.json in DIR (created; must be empty)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="pairs run at once (default: the cores)")
    parser.add_argument("--diff-arg", action="append", default=[], metavar="ARG",
                        help="an extra argument for every navlog diff, such as --diff-arg=--ending=Master (repeatable)")
    arguments = parser.parse_args(argv)
    if arguments.pairs is None:
        arguments.pairs = 4 if arguments.quick else 100
    if arguments.pairs < 1:
        raise UsageError(f"--pairs must be at least 1, not {arguments.pairs}")
    if arguments.jobs < 1:
        raise UsageError(f"--jobs must be at least 1, not {arguments.jobs}")
    if arguments.keep and Path(arguments.keep).exists() and any(Path(arguments.keep).iterdir()):
        raise UsageError(f"--keep {arguments.keep}: the directory is not empty")
    return arguments


def calibrate(arguments):
    catalog = {app["name"]: app for app in list_apps(arguments.navlog)}
    apps = arguments.apps.split(",") if arguments.apps else list(catalog)
    unknown = [app for app in apps if app not in catalog]
    if unknown:
        raise UsageError(f"--apps: no app {', '.join(unknown)}; apps: {', '.join(catalog)}")
    experiments = plan(apps, catalog, arguments.pairs)

    root = Path(arguments.keep) if arguments.keep else Path(tempfile.mkdtemp(prefix="navlog-calibrate-"))
    root.mkdir(parents=True, exist_ok=True)
    show_progress = sys.stderr.isatty()
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=arguments.jobs) as pool:
            futures = {
                pool.submit(run_pair, arguments.navlog, experiment, experiment.first_pair + index, root,
                            arguments.diff_arg, bool(arguments.keep)): experiment
                for experiment in experiments if not experiment.skipped
                for index in range(experiment.pairs)
            }
            for done, future in enumerate(concurrent.futures.as_completed(futures), start=1):
                try:
                    futures[future].results.append(future.result())
                except CalibrationError:
                    for pending in futures:
                        pending.cancel()
                    raise
                if show_progress:
                    print(f"\rcalibrate: {done}/{len(futures)} pairs", end="", file=sys.stderr, flush=True)
            if show_progress:
                print(file=sys.stderr)
    finally:
        if not arguments.keep:
            shutil.rmtree(root, ignore_errors=True)
    for experiment in experiments:
        experiment.results.sort(key=lambda result: result.number)
    if arguments.keep:
        write_pair_records(experiments, root / "pairs.jsonl")

    print(f"navlog diff calibration: {STEPS} steps x {SESSIONS} sessions a side; base seed 100000*pair+1, "
          f"candidate 100000*pair+50001; {arguments.pairs} same-configuration pairs, "
          f"{math.ceil(arguments.pairs / 2)} per regression")
    print()
    print_table(experiments)
    print_raw_rates(experiments)
    print()
    print(json.dumps(summary(experiments, arguments.pairs), sort_keys=True))


def main(argv):
    try:
        calibrate(parse_arguments(argv))
    except UsageError as error:
        print(f"calibrate: {error}", file=sys.stderr)
        return 64
    except CalibrationError as error:
        print(f"calibrate: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"calibrate: {error.filename or ''}: {error.strerror}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
