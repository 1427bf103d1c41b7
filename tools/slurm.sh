#!/bin/sh
# A one-node Slurm on this machine, for the tests that run somgpu's future paths under a
# real scheduler (tests/testthat/test-slurm.R, through future.batchtools):
#
#   sh tools/slurm.sh start    configure, start munged (if none runs), slurmctld and slurmd;
#                              wait for the node to be idle; print the SLURM_CONF to export
#   sh tools/slurm.sh stop     cancel every job, stop the daemons this script started
#   sh tools/slurm.sh status   the queue and the daemons
#
# Everything lives under $SOMGPU_SLURM_DIR (default /tmp/somgpu-slurm): the configuration,
# state, spool, logs and pid files. No cgroups (proctrack/linuxproc, task/none), no
# accounting, root as SlurmUser: a test scheduler, not a production one. Needs Debian's
# slurm-wlm and munge (.ci/run installs them). Exit status 1 when Slurm cannot start.
set -u
dir=${SOMGPU_SLURM_DIR:-/tmp/somgpu-slurm}
conf=$dir/slurm.conf
host=$(hostname -s)
export SLURM_CONF="$conf"

stop_pid() { # the process in pid file $1, if it runs
  if [ -f "$1" ]; then
    kill "$(cat "$1")" 2>/dev/null
    rm -f "$1"
  fi
}

case "${1:-}" in
start)
  for cmd in slurmctld slurmd munged sinfo; do
    command -v $cmd >/dev/null 2>&1 || { echo "slurm.sh: $cmd not found (apt-get install slurm-wlm munge)" >&2; exit 1; }
  done
  mkdir -p "$dir/state" "$dir/spool" "$dir/log"
  cat > "$conf" <<EOF
ClusterName=somgpu
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
MinJobAge=5
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  if ! pgrep -x munged >/dev/null 2>&1; then
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge 2>/dev/null
    munged --force --pid-file="$dir/munged.pid" >"$dir/log/munged.out" 2>&1 ||
      { echo "slurm.sh: munged did not start ($dir/log/munged.out)" >&2; exit 1; }
  fi
  slurmctld >"$dir/log/slurmctld.out" 2>&1 || { echo "slurm.sh: slurmctld did not start" >&2; exit 1; }
  slurmd >"$dir/log/slurmd.out" 2>&1 || { echo "slurm.sh: slurmd did not start" >&2; exit 1; }
  i=0
  while [ $i -lt 30 ]; do
    if sinfo -h -o %t 2>/dev/null | grep -qx idle; then
      echo "export SLURM_CONF=$conf"
      exit 0
    fi
    sleep 1
    i=$((i + 1))
  done
  echo "slurm.sh: the node did not become idle within 30 s (logs in $dir/log)" >&2
  exit 1
  ;;
stop)
  scancel --user="$(id -un)" >/dev/null 2>&1
  stop_pid "$dir/slurmd.pid"
  stop_pid "$dir/slurmctld.pid"
  stop_pid "$dir/munged.pid"
  i=0
  while [ $i -lt 20 ] && pgrep -x 'slurmd|slurmctld|slurmstepd' >/dev/null 2>&1; do
    sleep 0.5
    i=$((i + 1))
  done
  exit 0
  ;;
status)
  squeue 2>&1
  pgrep -a 'munged|slurmd|slurmctld|slurmstepd' 2>/dev/null # (pgrep warns of the long pattern)
  exit 0
  ;;
*)
  echo "usage: sh tools/slurm.sh start|stop|status" >&2
  exit 2
  ;;
esac
