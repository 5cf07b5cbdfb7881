#!/usr/bin/env python3
"""What a PostgreSQL server on this machine spent, for bench/shards.sh.

    pgstat.py cpu DATA_DIR     CPU seconds (user + system) of the server: the postmaster, its live processes and
                               the processes it reaped (their times add to the postmaster's children's times)
    pgstat.py writes URL       bytes the server wrote: WAL (pg_stat_wal) plus data pages written by the checkpointer,
                               the background writer and backends (pg_stat_bgwriter), 8 KiB each; needs psql
"""
import os
import subprocess
import sys


def ticks():
    return os.sysconf(os.sysconf_names["SC_CLK_TCK"])


def stat_fields(pid):
    with open(f"/proc/{pid}/stat") as f:
        text = f.read()
    # The command name is in parentheses and may hold spaces: fields start after the last ')'.
    return text[text.rindex(")") + 2:].split()


def cpu(data_dir):
    with open(os.path.join(data_dir, "postmaster.pid")) as f:
        postmaster = int(f.readline())
    fields = stat_fields(postmaster)
    # utime, stime, cutime, cstime are fields 14-17 of /proc/PID/stat (11-14 after the name).
    total = sum(int(v) for v in fields[11:15])
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == postmaster:
            continue
        try:
            child = stat_fields(entry)
        except OSError:
            continue
        if int(child[1]) == postmaster:  # ppid
            total += int(child[11]) + int(child[12])
    return total / ticks()


def writes(url):
    sql = ("SELECT (SELECT wal_bytes FROM pg_stat_wal) + "
           "(SELECT (buffers_checkpoint + buffers_clean + buffers_backend) * 8192 FROM pg_stat_bgwriter)")
    out = subprocess.run(["psql", "-X", "-At", url, "-c", sql], check=True, capture_output=True, text=True)
    return int(float(out.stdout.strip()))


def main():
    command, argument = sys.argv[1], sys.argv[2]
    if command == "cpu":
        print(f"{cpu(argument):.2f}")
    elif command == "writes":
        print(writes(argument))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
