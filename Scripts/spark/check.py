#!/usr/bin/env python3
"""Checks for Scripts/spark/test.sh: makes the test input, then verifies geocode.py's output.

  check.py make-input --points PTS.csv --out INPUT.csv [--garbage N] [--seed S]
  check.py verify --input INPUT.csv --output OUT.parquet --binary BIN --db DB --work DIR [--sample N]

`verify` prints one line per check and a closing `N passed, N failed`; it exits 1 on a failure.
It runs in its own local[2] Spark session (pyspark must be importable) and, besides reading the
main job's output, runs geocode.py's job on the USGS fixture, on JSON Lines, on Parquet and on
a headerless TSV file, and tries the job's usage errors.
"""

import argparse
import concurrent.futures
import csv
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import geocode  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
USGS_FIXTURE = os.path.join(REPO, "Tests", "Fixtures", "spark", "usgs-2.5_month.csv")

# Cells that are not coordinates, as real exports have them: typos, blanks, spreadsheet decimal
# commas, NaN, overflow, out of range.
GARBAGE = [
    ("51.5x", "-0.12"), ("", "10"), ("91", "0"), ("45", "181"), ("abc", "def"), ("NaN", "0"),
    ("inf", "0"), ("1e400", "0"), ("51,47", "-0,45"), ("0x1A", "3"), ("--1", "2"), ("1.2.3", "4"),
    ("  ", "5"), ("N51.5", "W0.1"), ("51.47", ""), ('5"1', "0"),
]
NOTES = ["", "", "", "arrivals, terminal 5", 'say "hi"', "semi;colon", "tab\there", "ünïcödé ✈"]


def make_input(arguments):
    """The generated points with a `note` column (commas, quotes, tabs, UTF-8) and garbage rows
    put in place of some points, ids kept: the row count stays the points' count."""
    rng = random.Random(arguments.seed)
    with open(arguments.points, newline="") as source:
        rows = list(csv.reader(source))
    header, body = rows[0], rows[1:]
    garbage_at = set(rng.sample(range(len(body)), arguments.garbage))
    with open(arguments.out + ".tmp", "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(header + ["note"])
        for index, row in enumerate(body):
            if index in garbage_at:
                lat, lon = GARBAGE[index % len(GARBAGE)]
                row = [row[0], lat, lon, "garbage"]
            writer.writerow(row + [rng.choice(NOTES)])
    os.replace(arguments.out + ".tmp", arguments.out)
    print(f"{arguments.out}: {len(body)} rows, {len(garbage_at)} garbage", file=sys.stderr)


class Checks:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, condition, detail=""):
        if condition:
            self.passed += 1
            print(f"ok: {name}")
        else:
            self.failed += 1
            print(f"FAIL: {name}{': ' + detail if detail else ''}")
        sys.stdout.flush()


def single_lookup(binary, db, lat, lon):
    """`travel411 where LAT LON --format json`: the placemark of one point, by itself."""
    result = subprocess.run([binary, "where", "--db", db, "--format", "json", lat, lon],
                            capture_output=True, text=True, timeout=120)
    if result.returncode != 0:
        return {"__failure": f"exit {result.returncode}: {result.stderr.strip()}"}
    return json.loads(result.stdout)


def job(spark, argv):
    """geocode.py's job in this session; returns (summary, None) or (None, JobError)."""
    try:
        return geocode.run(spark, geocode.parse_arguments(argv), log=sys.stdout), None
    except geocode.JobError as error:
        return None, error


def verify(arguments):
    from pyspark.sql import SparkSession
    from pyspark.sql.types import LongType, StringType

    checks = Checks()
    spark = (SparkSession.builder.master("local[2]").appName("travel411-geocode-check")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    # The Python workers unpickle geocode.PartitionGeocoder: they need the module itself.
    spark.sparkContext.addPyFile(geocode.__file__)
    base = ["--binary", arguments.binary, "--db", arguments.db]

    # --- the main run: 200,000 rows through spark-submit ---
    with open(arguments.input, newline="") as source:
        expected = list(csv.DictReader(source))
    frame = spark.read.parquet(arguments.output)
    input_columns = list(expected[0].keys())
    wanted = input_columns + geocode.FIELDS + ["error"]
    checks.check("output columns are the input's, then every field, then error", frame.columns == wanted,
                 f"{frame.columns}")
    types = {field.name: field.dataType for field in frame.schema.fields}
    checks.check("distance is a whole number (bigint), the other fields text",
                 isinstance(types.get("distance"), LongType)
                 and all(isinstance(types[name], StringType) for name in wanted if name != "distance"))

    rows = [row.asDict() for row in frame.collect()]
    ids = [row["id"] for row in rows]
    checks.check(f"one output row per input row ({len(expected):,})", len(rows) == len(expected),
                 f"{len(rows):,} output rows")
    checks.check("the same ids, none twice", sorted(ids) == sorted(row["id"] for row in expected)
                 and len(set(ids)) == len(ids))
    by_id = {row["id"]: row for row in rows}
    # Spark's CSV reader reads an empty cell as null.
    differing = [source["id"] for source in expected
                 if any((by_id.get(source["id"], {}).get(column) or "") != source[column] for column in input_columns)]
    checks.check("every row keeps its input cells (quotes, commas, tabs, UTF-8)", not differing,
                 f"{len(differing)} rows differ, first {differing[:3]}")

    garbage = [by_id[source["id"]] for source in expected if source["kind"] == "garbage"]
    bad_garbage = [row["id"] for row in garbage
                   if not row["error"] or row["error"].startswith("line ")
                   or ("latitude" not in row["error"] and "longitude" not in row["error"])
                   or any(row[field] is not None for field in geocode.FIELDS)]
    checks.check(f"the {len(garbage)} garbage rows are error rows saying what is wrong, without placemark fields",
                 bool(garbage) and not bad_garbage, f"{bad_garbage[:5]}")
    good = [by_id[source["id"]] for source in expected if source["kind"] != "garbage"]
    with_error = [row["id"] for row in good if row["error"] is not None]
    checks.check("no point with valid coordinates has an error", not with_error, f"{with_error[:5]}")
    examples = {source["lat"]: by_id[source["id"]]["error"] for source in expected if source["kind"] == "garbage"}
    print("  errors, e.g.: " + "; ".join(f"{lat!r} -> {error}" for lat, error in list(examples.items())[:4]))

    rng = random.Random(arguments.seed)
    sample = rng.sample(good, min(arguments.sample, len(good)))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        answers = list(pool.map(lambda row: single_lookup(arguments.binary, arguments.db, row["lat"], row["lon"]),
                                sample))
    mismatches = []
    for row, answer in zip(sample, answers):
        for field in geocode.FIELDS:
            if "__failure" in answer or answer.get(field) != row[field]:
                mismatches.append((row["id"], field, row[field], answer.get(field, answer.get("__failure"))))
                break
    checks.check(f"a sample of {len(sample)} rows equals single `travel411 where LAT LON` answers, field by field",
                 not mismatches, f"{len(mismatches)} differ, first {mismatches[:3]}")

    # --- the USGS feed (real data, CSV with quoted commas) -> JSON Lines ---
    work = arguments.work
    usgs_out = os.path.join(work, "usgs.jsonl")
    summary, error = job(spark, base + ["--input", USGS_FIXTURE, "--output", usgs_out, "--overwrite",
                                        "--fields", "country,ocean,timeZone,distance"])
    with open(USGS_FIXTURE, newline="") as source:
        quakes = list(csv.DictReader(source))
    written = [json.loads(line) for name in sorted(os.listdir(usgs_out)) if name.startswith("part-")
               for line in open(os.path.join(usgs_out, name))]
    checks.check(f"USGS feed: {len(quakes)} quakes in, as many JSON lines out, latitude/longitude found",
                 error is None and len(written) == len(quakes) and summary["latitude_column"] == "latitude",
                 f"{error or len(written)}")
    by_quake = {row["id"]: row for row in written}
    checks.check("USGS feed: places with commas kept, every quake answered (country or ocean), distance a number",
                 all(by_quake.get(quake["id"], {}).get("place") == quake["place"] for quake in quakes)
                 and all((row.get("country") or row.get("ocean")) and isinstance(row.get("distance"), int)
                         and "error" not in row for row in written))

    # --- JSON Lines input with a line that is not JSON and missing or null coordinates -> Parquet ---
    jsonl = os.path.join(work, "points.jsonl")
    with open(jsonl, "w") as out:
        for quake in quakes[:200]:
            out.write(json.dumps({"id": quake["id"], "lat": float(quake["latitude"]),
                                  "lon": float(quake["longitude"]), "mag": float(quake["mag"])}) + "\n")
        out.write('{"id": "truncated", "lat": 51.4\n')
        out.write(json.dumps({"id": "null-lat", "lat": None, "lon": 1.5, "mag": 1.0}) + "\n")
        out.write(json.dumps({"id": "no-lon", "lat": 1.5, "mag": 1.0}) + "\n")
    jsonl_out = os.path.join(work, "points.parquet")
    summary, error = job(spark, base + ["--input", jsonl, "--output", jsonl_out, "--overwrite",
                                        "--fields", "country,ocean,distance", "--partitions", "3"])
    result = {row["id"]: row.asDict() for row in spark.read.parquet(jsonl_out).collect()
              if row["id"] is not None}
    corrupt = spark.read.parquet(jsonl_out).where("_corrupt_record is not null").collect()
    checks.check("JSON Lines: 203 lines in, 203 rows out over 3 partitions; the broken line is an error row",
                 error is None and summary["rows"] == 203 and summary["partitions"] == 3 and len(result) == 202
                 and len(corrupt) == 1 and corrupt[0]["error"] is not None,
                 f"{error or summary}")
    checks.check("JSON Lines: null and missing coordinates are error rows, numbers are geocoded",
                 result["null-lat"]["error"] == "latitude is empty" and result["no-lon"]["error"] == "longitude is empty"
                 and all(result[quake["id"]]["error"] is None for quake in quakes[:200]),
                 f"{result['null-lat']['error']!r}, {result['no-lon']['error']!r}")

    # --- Parquet input whose columns collide with the added ones ---
    again_out = os.path.join(work, "again.parquet")
    summary, error = job(spark, base + ["--input", jsonl_out, "--output", again_out, "--overwrite",
                                        "--fields", "country,distance"])
    again = spark.read.parquet(again_out)
    renamed = again.columns == ["_corrupt_record", "id", "lat", "lon", "mag", "input_country", "ocean",
                                "input_distance", "input_error", "country", "distance", "error"]
    same = again.where("id is not null and error is null and "
                       "(input_country <=> country) and (input_distance <=> distance)").count()
    checks.check("Parquet: colliding input columns become input_<name>, and the answers equal the first run's",
                 error is None and renamed and same == 200, f"{error or again.columns}, {same} equal")

    # --- a headerless TSV file ---
    tsv = os.path.join(work, "noheader.tsv")
    with open(tsv, "w") as out:
        out.write("51.47\t-0.45\theathrow\n-33.8568\t151.2153\topera\nnorth\t0\tbad\n")
    tsv_out = os.path.join(work, "noheader.csv")
    summary, error = job(spark, base + ["--input", tsv, "--no-header", "--output", tsv_out, "--overwrite",
                                        "--fields", "locality,country"])
    tsv_rows = sorted(spark.read.option("header", True).csv(tsv_out).collect(), key=lambda row: row["_c2"])
    checks.check("headerless TSV: the first two columns are latitude and longitude; CSV output",
                 error is None and [(row["_c2"], row["locality"], row["error"] is not None) for row in tsv_rows]
                 == [("bad", None, True), ("heathrow", "London", False), ("opera", "Sydney", False)],
                 f"{error or tsv_rows}")

    # --- usage errors: before any work, with sysexits statuses ---
    _, exists = job(spark, base + ["--input", tsv, "--no-header", "--output", tsv_out])
    _, missing = job(spark, base + ["--input", os.path.join(work, "nowhere.csv"), "--output", tsv_out + "2"])
    _, no_columns = job(spark, base + ["--input", USGS_FIXTURE, "--lat-column", "depth_km",
                                       "--output", tsv_out + "3"])
    _, no_binary = job(spark, ["--binary", "/nonexistent/travel411", "--db", arguments.db,
                               "--input", tsv, "--output", tsv_out + "4"])
    statuses = [getattr(error, "status", None) for error in (exists, missing, no_columns, no_binary)]
    checks.check("existing output 73, missing input 66, unknown column 65, missing binary 69",
                 statuses == [73, 66, 65, 69], f"{statuses}: {[str(error) for error in (exists, missing, no_columns, no_binary)]}")

    # --- a task that fails: the database is not on the executors ---
    spark.sparkContext.setLogLevel("OFF")  # the failing task's Java stack is expected here
    try:
        geocode.run(spark, geocode.parse_arguments(["--binary", arguments.binary, "--db", "not-shipped.gpkg",
                                                    "--input", tsv, "--no-header", "--output", tsv_out + "5"]),
                    log=sys.stdout)
        reason = "the job succeeded"
    except geocode.JobError as error:
        reason = f"a usage error: {error}"
    except Exception as error:  # noqa: BLE001 - what main() reports for a failed job
        reason = geocode.failure_reason(error)
    spark.sparkContext.setLogLevel("ERROR")
    checks.check("a task that cannot find the database fails the job, and the message says why",
                 "'not-shipped.gpkg' was not shipped to this executor" in reason, reason)

    spark.stop()
    print(f"spark: {checks.passed} passed, {checks.failed} failed")
    return 0 if checks.failed == 0 else 1


def main():
    parser = argparse.ArgumentParser(prog="check.py", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("make-input", help="the test input: points, notes and garbage rows")
    make.add_argument("--points", required=True)
    make.add_argument("--out", required=True)
    make.add_argument("--garbage", type=int, default=64)
    make.add_argument("--seed", type=int, default=14)
    check = commands.add_parser("verify", help="check the job's output and run the other cases")
    check.add_argument("--input", required=True)
    check.add_argument("--output", required=True)
    check.add_argument("--binary", required=True)
    check.add_argument("--db", required=True)
    check.add_argument("--work", required=True)
    check.add_argument("--sample", type=int, default=1000)
    check.add_argument("--seed", type=int, default=14)
    arguments = parser.parse_args()
    if arguments.command == "make-input":
        make_input(arguments)
        return 0
    return verify(arguments)


if __name__ == "__main__":
    sys.exit(main())
