#!/bin/sh
# Hadoop Streaming mapper: JSON Lines in on stdin, one JSON line out per line, in order.
# travel411 and places.gpkg come with the job's -files (symlinked into the task's directory).
# Exit status 65 only says that some rows hold an error, which those rows carry: not a failed task.
# Any other failure (a missing database, a crash) still fails the task.
# Extra arguments go to travel411 where (e.g. --fields country,locality,timeZone).
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
./travel411 where --db places.gpkg --input-format jsonl --format jsonl --jobs 1 "$@"
status=$?
[ "$status" -eq 65 ] && exit 0
exit "$status"
