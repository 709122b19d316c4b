#!/usr/bin/env bash
# The local-mode test of Scripts/spark/geocode.py: one command from a fresh clone.
set -euo pipefail

usage() {
    cat <<'EOF'
Usage: Scripts/spark/test.sh [options]

Tests the Spark path end to end on this machine, with Spark in local mode (local[2]):
  1. Java 17 or newer (installs Debian's openjdk-17-jre-headless if it is missing and we are root)
  2. a virtual environment with pyspark from PyPI (Scripts/spark/requirements.txt), reused if present
  3. the executors' binary: swift build -c release --static-swift-stdlib --product travel411
  4. a places database built from Data/ by that binary (travel411 import), unless
     TRAVEL411_TEST_PLACES_DB names a ready one
  5. 200,000 generated points (Scripts/bench --data-only) with a note column and 64 garbage rows
  6. spark-submit --master 'local[2]' Scripts/spark/geocode.py ... -> Parquet
  7. Scripts/spark/check.py verify: one row per input row with the same ids and cells; a sample of
     1,000 rows equal to single `travel411 where LAT LON` answers field by field; garbage rows are
     error rows; then the job on the USGS fixture (CSV), JSON Lines, Parquet, headerless TSV, and
     its usage errors. It ends with "spark: N passed, N failed".

Options:
  --points N     points in the main run (default 200000)
  --sample N     rows compared with single lookups (default 1000)
  --work DIR     work directory (default .build-spark/test in the repository)
  --venv DIR     virtual environment (default .build-spark/venv; TRAVEL411_SPARK_VENV too)
  --skip-build   use the existing release binary
  -h, --help     this help

Exit status: 0 when every check passed, 1 when one failed, else the failing step's status.
EOF
}

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
points=200000
sample=1000
work="$repo/.build-spark/test"
venv="${TRAVEL411_SPARK_VENV:-$repo/.build-spark/venv}"
skip_build=0
while [[ $# -gt 0 ]]; do
    case "$1" in
        --points) points="$2"; shift 2 ;;
        --sample) sample="$2"; shift 2 ;;
        --work) work="$2"; shift 2 ;;
        --venv) venv="$2"; shift 2 ;;
        --skip-build) skip_build=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "test.sh: unknown option '$1' (see --help)" >&2; exit 64 ;;
    esac
done

step() { printf '== %s (%ds)\n' "$1" "$SECONDS"; }
mkdir -p "$work"

step "java"
java_major() { java -version 2>&1 | awk -F'"' '/version/ { split($2, v, "."); print (v[1] == "1" ? v[2] : v[1]); exit }'; }
if ! command -v java >/dev/null || (( $(java_major) < 17 )); then
    if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jre-headless >/dev/null
    else
        echo "test.sh: Spark needs Java 17 or newer: apt-get install openjdk-17-jre-headless" >&2
        exit 69
    fi
fi
java -version 2>&1 | head -1

step "pyspark in $venv"
requirements="$repo/Scripts/spark/requirements.txt"
if [[ ! -x "$venv/bin/python" ]] || ! cmp -s "$requirements" "$venv/.travel411-requirements"; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
    cp "$requirements" "$venv/.travel411-requirements"
fi
# spark-submit finds Spark and Python through PATH; the executors' Python is the same venv's.
export PATH="$venv/bin:$PATH" PYSPARK_PYTHON="$venv/bin/python" PYSPARK_DRIVER_PYTHON="$venv/bin/python"
python -c 'import pyspark; print("pyspark", pyspark.__version__)'

step "release binary (static Swift runtime, as executors get it)"
if [[ $skip_build == 0 ]]; then
    (cd "$repo" && swift build -c release --static-swift-stdlib --product travel411)
fi
bin="$repo/.build/release/travel411"
[[ -x "$bin" ]] || { echo "test.sh: $bin is missing (drop --skip-build)" >&2; exit 69; }

step "places database"
if [[ -n "${TRAVEL411_TEST_PLACES_DB:-}" ]]; then
    db="$TRAVEL411_TEST_PLACES_DB"
    echo "using $db (TRAVEL411_TEST_PLACES_DB)"
else
    db="$work/places.gpkg"
    if [[ ! -s "$db" || "$bin" -nt "$db" ]]; then
        rm -f "$db"
        "$bin" import "$repo/Data" --db "$db"
    fi
fi

step "$points points"
pts="$("$repo/Scripts/bench" --data-only --points "$points" --out "$work")"
input="$work/input-$points.csv"
python "$repo/Scripts/spark/check.py" make-input --points "$pts" --out "$input"

step "spark-submit --master local[2] geocode.py"
# Spark's INFO lines would bury the job's own output.
printf 'rootLogger.level = warn\nrootLogger.appenderRef.stderr.ref = console\nappender.console.type = Console\nappender.console.name = console\nappender.console.target = SYSTEM_ERR\nappender.console.layout.type = PatternLayout\nappender.console.layout.pattern = %%d{HH:mm:ss} %%p %%c{1}: %%m%%n\n' > "$work/log4j2.properties"
output="$work/output.parquet"
spark-submit --master 'local[2]' --driver-java-options "-Dlog4j2.configurationFile=file:$work/log4j2.properties" \
    "$repo/Scripts/spark/geocode.py" --binary "$bin" --db "$db" \
    --input "$input" --output "$output" --overwrite

step "checks"
status=0
spark-submit --master 'local[2]' --driver-java-options "-Dlog4j2.configurationFile=file:$work/log4j2.properties" \
    "$repo/Scripts/spark/check.py" verify --input "$input" --output "$output" \
    --binary "$bin" --db "$db" --work "$work" --sample "$sample" || status=$?
step "done"
exit $status
