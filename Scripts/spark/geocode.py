#!/usr/bin/env python3
"""Reverse-geocode a dataset of points with travel411 on every Spark executor.

Run it with spark-submit (see --help). Each partition streams its rows through ONE
`travel411 where` process (CSV in, JSON Lines out); travel411 answers exactly one row per
row, in order, so the answers are zipped back onto the partition's own rows: no join, no
shuffle. The binary and the places database reach the executors through Spark's own file
distribution (SparkContext.addFile, the same mechanism as `spark-submit --files`).
"""

import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time

PROG = "geocode.py"

# travel411's placemark fields (`travel411 where --fields`), in its default order.
FIELDS = [
    "name", "thoroughfare", "subThoroughfare", "locality", "subLocality", "administrativeArea",
    "subAdministrativeArea", "postalCode", "country", "isoCountryCode", "timeZone", "inlandWater",
    "ocean", "nearestLocality", "distance", "bearing", "description",
]
# Fields that are numbers (whole metres); every other field is text.
INTEGER_FIELDS = {"distance"}
ERROR_COLUMN = "error"

# The column names travel411 recognises, best first (Sources/Travel411Kit/Formats/CoordinateColumns.swift).
LATITUDE_NAMES = [
    "lat", "latitude", "lat_dd", "latitude_dd", "lat_deg", "latitude_deg", "lat_wgs84", "latitude_wgs84",
    "decimallatitude", "gps_lat", "gps_latitude", "point_lat", "start_lat", "y_coord", "coord_y", "ycoord",
    "point_y", "y",
]
LONGITUDE_NAMES = [
    "lon", "lng", "long", "longitude", "lon_dd", "lng_dd", "long_dd", "longitude_dd", "lon_deg", "longitude_deg",
    "lon_wgs84", "longitude_wgs84", "decimallongitude", "gps_lon", "gps_lng", "gps_long", "gps_longitude",
    "point_lon", "point_lng", "start_lon", "start_lng", "x_coord", "coord_x", "xcoord", "point_x", "x",
]

# sysexits, as travel411 uses them.
EX_USAGE, EX_DATAERR, EX_NOINPUT, EX_UNAVAILABLE, EX_SOFTWARE, EX_CANTCREAT = 64, 65, 66, 69, 70, 73

# travel411 prefixes a row's error with its line in the stream it was fed; that line number
# means nothing to the dataset's owner (the row is identified by its own columns).
PIPE_LINE_PREFIX = re.compile(r"^line \d+: ")


class JobError(Exception):
    """A problem reported to the user as `geocode.py: <message>`, with a sysexits status."""

    def __init__(self, message, status):
        super().__init__(message)
        self.status = status


def parse_arguments(argv):
    parser = argparse.ArgumentParser(
        prog=PROG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Reverse-geocode a CSV, TSV, JSON Lines or Parquet dataset of points with travel411 on "
        "every Spark executor, and write it back as Parquet, CSV or JSON Lines with the placemark "
        "fields appended as typed columns (distance is a whole number of metres, the rest text) "
        "and an `error` column for rows that could not be geocoded.",
        epilog="""\
Every input row gives exactly one output row: the input's columns as Spark read them, then the
fields, then `error` (null when the row was geocoded). An input column named like an added one is
renamed input_<name>, as `travel411 where` does. Bad rows do not fail the job; the summary on
stderr counts them.

The binary and the database are shipped with SparkContext.addFile (spark-submit --files does the
same). A bare name that is not a file here, such as the default `travel411`, means a file already
shipped under that name: spark-submit --files /path/travel411,/path/places.gpkg.

Example (local mode, 2 cores):
  spark-submit --master 'local[2]' Scripts/spark/geocode.py \\
      --binary .build/release/travel411 --db places.gpkg \\
      --input pts.csv --output pts-geocoded.parquet --fields country,locality,timeZone

Exit status: 0 done (some rows may hold errors), 64 usage, 65 no coordinate columns,
66 input missing, 69 binary or database missing, 73 output exists, 70 the job failed.""",
    )
    parser.add_argument("--input", required=True, metavar="PATH",
                        help="file or directory of files; any path Spark reads (file:, hdfs:, s3a:, ...)")
    parser.add_argument("--input-format", choices=["csv", "tsv", "jsonl", "parquet"],
                        help="default: from the extension (.csv, .tsv/.tab, .jsonl/.ndjson/.json, .parquet)")
    parser.add_argument("--delimiter", metavar="CHAR",
                        help="CSV field separator: ',' (default), ';', '|' or 'tab'")
    parser.add_argument("--no-header", action="store_true",
                        help="CSV/TSV without a header line: the first two columns are latitude, longitude")
    parser.add_argument("--lat-column", metavar="NAME",
                        help="latitude column (default: lat, latitude, y, ... in any letter case)")
    parser.add_argument("--lon-column", metavar="NAME",
                        help="longitude column (default: lon, lng, longitude, x, ... in any letter case)")
    parser.add_argument("--output", required=True, metavar="PATH", help="output directory (Spark writes part files)")
    parser.add_argument("--output-format", choices=["parquet", "csv", "jsonl"],
                        help="default: from the output's extension (.csv, .jsonl/.json), else parquet")
    parser.add_argument("--overwrite", action="store_true", help="replace an existing output")
    parser.add_argument("--fields", metavar="LIST", default=",".join(FIELDS),
                        help="placemark fields to add, comma-separated, in order (default: all: %(default)s)")
    parser.add_argument("--partitions", type=int, metavar="N",
                        help="repartition the input into N partitions first (a shuffle); default: "
                        "keep the input's partitions")
    parser.add_argument("--jobs", type=int, metavar="N",
                        help="threads of each travel411 process (default: spark.task.cpus, normally 1, "
                        "since Spark already runs one task per core)")
    parser.add_argument("--binary", default="travel411", metavar="PATH",
                        help="travel411 built for the executors (default: %(default)s, shipped with --files)")
    parser.add_argument("--db", default="places.gpkg", metavar="PATH",
                        help="places database (default: %(default)s, shipped with --files)")
    parser.add_argument("--master", help="Spark master when not run by spark-submit (e.g. 'local[2]')")
    arguments = parser.parse_args(argv)

    fields = [name.strip() for name in arguments.fields.split(",") if name.strip()]
    unknown = [name for name in fields if name not in FIELDS]
    if unknown:
        parser.error(f"unknown field '{unknown[0]}' in --fields; the fields are: {', '.join(FIELDS)}")
    if not fields:
        parser.error("--fields names no field")
    if len(set(fields)) != len(fields):
        parser.error("--fields names a field twice")
    arguments.field_list = fields
    if arguments.partitions is not None and arguments.partitions < 1:
        parser.error("--partitions must be at least 1")
    if arguments.jobs is not None and arguments.jobs < 1:
        parser.error("--jobs must be at least 1")
    delimiters = {None: None, ",": ",", ";": ";", "|": "|", "tab": "\t", "\t": "\t"}
    if arguments.delimiter not in delimiters:
        parser.error("--delimiter must be ',', ';', '|' or 'tab'")
    arguments.delimiter = delimiters[arguments.delimiter]
    arguments.input_format = arguments.input_format or format_from_extension(
        arguments.input, {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".jsonl": "jsonl", ".ndjson": "jsonl",
                          ".json": "jsonl", ".parquet": "parquet"})
    if arguments.input_format is None:
        parser.error(f"cannot tell the format of '{arguments.input}' from its name; "
                     "say --input-format csv|tsv|jsonl|parquet")
    arguments.output_format = arguments.output_format or format_from_extension(
        arguments.output, {".csv": "csv", ".jsonl": "jsonl", ".json": "jsonl", ".ndjson": "jsonl"}) or "parquet"
    return arguments


def format_from_extension(path, extensions):
    """The format a path's extension names; for a directory, the extension its files share."""
    stripped = path.rstrip("/")
    for extension, name in extensions.items():
        if stripped.lower().endswith(extension):
            return name
    local = stripped[len("file:"):] if stripped.startswith("file:") else stripped
    if os.path.isdir(local):
        found = {name for entry in os.listdir(local) if not entry.startswith(("_", "."))
                 for extension, name in extensions.items() if entry.lower().split(".crc")[0].endswith(extension)}
        if len(found) == 1:
            return found.pop()
    return None


def find_coordinate_columns(columns, lat_name, lon_name):
    """(latitude column, longitude column) among `columns`, as travel411 would choose them."""
    def pick(explicit, candidates, role, flag):
        if explicit is not None:
            if explicit in columns:
                return explicit
            folded = [column for column in columns if column.lower() == explicit.lower()]
            if folded:
                return folded[0]
            raise JobError(f"no {role} column '{explicit}' in the input (columns: {', '.join(columns)})", EX_DATAERR)
        for candidate in candidates:
            for column in columns:
                if column.strip().lower() == candidate:
                    return column
        raise JobError(f"no {role} column in the input (columns: {', '.join(columns)}); name it with {flag}",
                       EX_DATAERR)
    return (pick(lat_name, LATITUDE_NAMES, "latitude", "--lat-column"),
            pick(lon_name, LONGITUDE_NAMES, "longitude", "--lon-column"))


def output_column_names(input_columns, fields):
    """The input's names with any that collide with an added column renamed input_<name>."""
    taken = set(fields) | {ERROR_COLUMN}
    names = []
    for name in input_columns:
        while name in taken:
            name = "input_" + name
        taken.add(name)
        names.append(name)
    return names


def coordinate_text(value):
    """A cell as travel411 reads it: numbers in their shortest exact form, text as it is."""
    if value is None:
        return ""
    if isinstance(value, float):
        return repr(value)
    text = str(value)
    if any(character in text for character in ',"\r\n'):
        # A CSV cell: no line breaks (the row must stay one line), quotes doubled.
        text = '"' + text.replace("\r", " ").replace("\n", " ").replace('"', '""') + '"'
    return text


class PartitionGeocoder:
    """Geocodes one partition's Arrow record batches through one travel411 process.

    Spark calls it once per partition (DataFrame.mapInArrow) and pickles it to the executors.
    A writer thread feeds the batches to travel411 as CSV (row number, latitude, longitude);
    this thread reads back, for each batch in turn, exactly as many JSON lines as the batch has
    rows, parses them column-wise with pyarrow and appends the columns to the batch. travel411
    answers every row once and in order, and each answer's row number is checked.
    """

    def __init__(self, binary, db, fields, latitude_column, longitude_column, output_names, jobs, counters):
        self.binary = binary
        self.db = db
        self.fields = fields
        self.latitude_column = latitude_column
        self.longitude_column = longitude_column
        self.output_names = output_names
        self.jobs = jobs
        self.counters = counters

    @staticmethod
    def shipped(name):
        """The executor's copy of a shipped file: SparkFiles (addFile, --files), else the working
        directory (YARN puts --files there), else the name as a path (a file every node has)."""
        from pyspark import SparkFiles
        base = os.path.basename(name)
        for candidate in (SparkFiles.get(base), os.path.join(os.getcwd(), base), name):
            if os.path.isfile(candidate):
                return candidate
        raise RuntimeError(f"travel411: '{name}' was not shipped to this executor (SparkFiles root "
                           f"{SparkFiles.getRootDirectory()}); pass it with --files or the job's --binary/--db")

    def command(self):
        binary = self.shipped(self.binary)
        if not os.access(binary, os.X_OK):
            # Spark marks fetched files executable; an archive or a copy may not have kept the bit.
            os.chmod(binary, os.stat(binary).st_mode | 0o111)
        return [binary, "where", "--db", self.shipped(self.db),
                "--input-format", "csv", "--delimiter", ",", "--lat-column", "lat", "--lon-column", "lon",
                "--format", "jsonl", "--fields", ",".join(self.fields), "--jobs", str(self.jobs)]

    def __call__(self, batches):
        batches = iter(batches)
        first = next((batch for batch in batches if batch.num_rows), None)
        if first is None:
            return  # no process for an empty partition
        yield from self.geocode(first, batches)

    def answer_schema(self):
        import pyarrow as pa
        return pa.schema([pa.field("row", pa.string())]
                         + [pa.field(field, pa.int64() if field in INTEGER_FIELDS else pa.string())
                            for field in self.fields]
                         + [pa.field(ERROR_COLUMN, pa.string())])

    def geocode(self, first, batches):
        import io
        import queue
        import pyarrow as pa
        import pyarrow.compute as pc
        import pyarrow.json as pajson

        stderr = tempfile.TemporaryFile()
        process = subprocess.Popen(self.command(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                   bufsize=1 << 16)
        # Batches written but not yet answered, in order; None once the writer is done. The writer
        # queues a batch before writing its rows, so the reader never waits for rows not sent.
        pending = queue.Queue()
        writer_failure = []

        def write_batches():
            try:
                out = process.stdin
                out.write(b"row,lat,lon\n")
                number = 0
                for batch in _chain(first, batches):
                    if batch.num_rows == 0:
                        continue
                    latitudes = batch.column(self.latitude_column).to_pylist()
                    longitudes = batch.column(self.longitude_column).to_pylist()
                    pending.put(batch)
                    out.write("".join(
                        f"{number + index},{coordinate_text(latitude)},{coordinate_text(longitude)}\n"
                        for index, (latitude, longitude) in enumerate(zip(latitudes, longitudes))
                    ).encode("utf-8", "replace"))
                    number += batch.num_rows
            except BrokenPipeError:
                pass  # travel411 stopped early: the reader reports its status and stderr
            except BaseException as error:  # noqa: BLE001 - re-raised on the reading thread
                writer_failure.append(error)
            finally:
                pending.put(None)
                try:
                    process.stdin.close()
                except OSError:
                    pass

        writer = threading.Thread(target=write_batches, name="travel411-stdin", daemon=True)
        writer.start()
        options = pajson.ParseOptions(explicit_schema=self.answer_schema(), unexpected_field_behavior="ignore")
        answered = errors = 0
        try:
            while (batch := pending.get()) is not None:
                count = batch.num_rows
                lines = [process.stdout.readline() for _ in range(count)]
                if not lines[-1]:
                    status = process.wait()
                    raise RuntimeError(f"travel411 stopped after {answered + sum(1 for line in lines if line)} "
                                       f"rows (exit status {status}): {_tail(stderr)}")
                answers = pajson.read_json(io.BytesIO(b"".join(lines)), parse_options=options)
                expected = pa.array(range(answered, answered + count), pa.int64())
                if answers.num_rows != count or not pc.all(pc.equal(pc.cast(answers["row"], pa.int64()),
                                                                     expected)).as_py():
                    raise RuntimeError(f"travel411's answers to rows {answered}-{answered + count - 1} "
                                       "are not those rows, in order")
                error = answers[ERROR_COLUMN]
                errors += count - error.null_count
                error = pc.replace_substring_regex(error, pattern=PIPE_LINE_PREFIX.pattern, replacement="")
                columns = list(batch.columns) + [answers[field].combine_chunks() for field in self.fields]
                answered += count
                yield pa.RecordBatch.from_arrays(columns + [error.combine_chunks()], names=self.output_names)
            writer.join()
            if writer_failure:
                raise writer_failure[0]
            if process.stdout.read(1):
                raise RuntimeError("travel411 answered more rows than it was given")
            status = process.wait()
            # 65 only says that some rows hold errors, which the rows themselves carry.
            if status not in (0, EX_DATAERR):
                raise RuntimeError(f"travel411 exited with status {status}: {_tail(stderr)}")
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            stderr.close()
            self.counters[0].add(answered)
            self.counters[1].add(errors)


def _chain(first, rest):
    yield first
    yield from rest


def _tail(stderr_file, limit=2000):
    stderr_file.seek(0)
    text = stderr_file.read().decode("utf-8", "replace").strip()
    return (text[-limit:] if text else "(nothing on stderr)")


def ship(context, path, role):
    """Registers a file with SparkContext.addFile, unless it was shipped already (--files);
    returns the name executors find it under. Spark ships files by name, so two different files
    of the same name cannot both be shipped."""
    name = os.path.basename(path.rstrip("/"))
    shipped = [uri for uri in context.listFiles if os.path.basename(uri.rstrip("/")) == name]
    configured = ",".join(context.getConf().get(key, "") for key in ("spark.files", "spark.yarn.dist.files"))
    shipped += [uri for uri in configured.split(",") if uri and os.path.basename(uri.split("#")[0].rstrip("/")) == name]
    if "/" not in path and ":" not in path:
        # A bare name: a file shipped under that name (--files), or else one here to ship.
        if shipped:
            return name
        if os.path.isfile(path):
            context.addFile(os.path.abspath(path))
        return name  # otherwise each executor must have it in its working directory
    has_scheme = re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", path) is not None
    if has_scheme and not path.startswith("file:"):
        uri = path
    else:
        local = path[len("file:"):] if path.startswith("file:") else path
        if not os.path.isfile(local):
            raise JobError(f"the {role} '{path}' does not exist", EX_UNAVAILABLE)
        uri = "file:" + os.path.abspath(local)
    if shipped:
        if not any(_same_uri(other, uri) for other in shipped):
            raise JobError(f"a different file named '{name}' is already shipped ({shipped[0]}); "
                           f"Spark ships files by name, so give the {role} another name", EX_USAGE)
        return name
    context.addFile(uri)
    return name


def _same_uri(left, right):
    strip = lambda uri: re.sub(r"^file:/*", "/", uri)  # noqa: E731 - file:/a, file:///a and /a are one file
    return strip(left) == strip(right)


def read_input(spark, arguments):
    reader = spark.read
    if arguments.input_format in ("csv", "tsv"):
        separator = arguments.delimiter or ("\t" if arguments.input_format == "tsv" else ",")
        # Every column as text: the input's cells come back as they were, and a malformed
        # coordinate reaches travel411, which says what is wrong with it.
        # escape '"': RFC 4180 doubles a quote inside a quoted cell (Spark's default is a backslash).
        frame = (reader.option("header", not arguments.no_header).option("sep", separator)
                 .option("quote", '"').option("escape", '"')
                 .option("inferSchema", False).option("mode", "PERMISSIVE").csv(arguments.input))
    elif arguments.input_format == "jsonl":
        # PERMISSIVE keeps a line that is not JSON as a row with _corrupt_record set and no
        # coordinates, so it comes back as an error row instead of vanishing.
        frame = reader.option("mode", "PERMISSIVE").json(arguments.input)
    else:
        frame = reader.parquet(arguments.input)
    return frame


def run(spark, arguments, log=sys.stderr):
    """Runs the job in an existing session; returns a summary dict."""
    from pyspark.sql.types import LongType, StringType, StructField, StructType
    from pyspark.errors import AnalysisException

    context = spark.sparkContext
    started = time.monotonic()
    binary = ship(context, arguments.binary, "travel411 binary")
    db = ship(context, arguments.db, "places database")

    hadoop_path = context._jvm.org.apache.hadoop.fs.Path(arguments.output)
    filesystem = hadoop_path.getFileSystem(context._jsc.hadoopConfiguration())
    if filesystem.exists(hadoop_path) and not arguments.overwrite:
        raise JobError(f"the output '{arguments.output}' exists; pass --overwrite to replace it", EX_CANTCREAT)

    try:
        frame = read_input(spark, arguments)
        input_columns = frame.columns
    except AnalysisException as error:
        text = str(error)
        if "PATH_NOT_FOUND" in text or "does not exist" in text:
            raise JobError(f"the input '{arguments.input}' does not exist", EX_NOINPUT) from None
        if "UNABLE_TO_INFER_SCHEMA" in text:
            raise JobError(f"the input '{arguments.input}' holds no rows to read as {arguments.input_format}",
                           EX_DATAERR) from None
        raise
    if arguments.no_header and arguments.input_format in ("csv", "tsv") and not (
            arguments.lat_column or arguments.lon_column):
        if len(input_columns) < 2:
            raise JobError("a file without a header needs latitude and longitude as its first two columns",
                           EX_DATAERR)
        latitude, longitude = input_columns[0], input_columns[1]
    else:
        latitude, longitude = find_coordinate_columns(input_columns, arguments.lat_column, arguments.lon_column)

    fields = arguments.field_list
    schema = StructType(
        [StructField(name, column.dataType, True)
         for name, column in zip(output_column_names(input_columns, fields), frame.schema.fields)]
        + [StructField(field, LongType() if field in INTEGER_FIELDS else StringType(), True) for field in fields]
        + [StructField(ERROR_COLUMN, StringType(), True)])

    if arguments.partitions is not None:
        frame = frame.repartition(arguments.partitions)
    partitions = frame.rdd.getNumPartitions()
    jobs = arguments.jobs or int(context.getConf().get("spark.task.cpus", "1"))
    counters = (context.accumulator(0), context.accumulator(0))
    geocoder = PartitionGeocoder(binary, db, fields, latitude, longitude, [field.name for field in schema.fields],
                                 jobs, counters)
    result = frame.mapInArrow(geocoder, schema)

    writer = result.write.mode("overwrite" if arguments.overwrite else "errorifexists")
    if arguments.output_format == "parquet":
        writer.parquet(arguments.output)
    elif arguments.output_format == "csv":
        writer.option("header", True).option("escape", '"').csv(arguments.output)
    else:
        writer.json(arguments.output)

    seconds = time.monotonic() - started
    summary = {"rows": counters[0].value, "errors": counters[1].value, "partitions": partitions,
               "seconds": round(seconds, 3), "rows_per_second": round(counters[0].value / seconds) if seconds else 0,
               "latitude_column": latitude, "longitude_column": longitude, "output": arguments.output}
    print(f"{PROG}: {summary['rows']:,} rows, {summary['errors']:,} "
          f"{'error' if summary['errors'] == 1 else 'errors'}, {partitions} "
          f"{'partition' if partitions == 1 else 'partitions'}, {seconds:.2f} s, "
          f"{summary['rows_per_second']:,} rows/s -> {arguments.output}", file=log)
    return summary


def failure_reason(error):
    """The line that says why a task failed (an executor's RuntimeError from PartitionGeocoder
    arrives wrapped in Py4J and Spark stack traces), else the error's first line."""
    text = str(error)
    found = re.findall(r"RuntimeError: (.+)", text)
    if found:
        return found[-1].strip()
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else type(error).__name__


def main(argv=None):
    arguments = parse_arguments(sys.argv[1:] if argv is None else argv)
    try:
        from pyspark.sql import SparkSession
    except ImportError:
        print(f"{PROG}: pyspark is not installed; run this with spark-submit or pip install pyspark",
              file=sys.stderr)
        return EX_UNAVAILABLE
    builder = SparkSession.builder.appName("travel411-geocode")
    if arguments.master:
        builder = builder.master(arguments.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    try:
        summary = run(spark, arguments)
        if os.environ.get("TRAVEL411_SPARK_SUMMARY"):
            with open(os.environ["TRAVEL411_SPARK_SUMMARY"], "w") as out:
                json.dump(summary, out)
        return 0
    except JobError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return error.status
    except Exception as error:  # noqa: BLE001 - the cause, without the Java and Python stacks
        print(f"{PROG}: the job failed: {failure_reason(error)}", file=sys.stderr)
        return EX_SOFTWARE
    finally:
        spark.stop()


if __name__ == "__main__":
    sys.exit(main())
