#!/usr/bin/env bash
# A real single-node Slurm cluster on 127.0.0.1, for tests and demos (root, Debian; no systemd needed).
#
#   bash slurm/local_cluster.sh start    # apt-installs slurmctld/slurmd/slurm-client/munge if missing, starts them
#   bash slurm/local_cluster.sh status   # prints sinfo; exit 0 when the node is usable
#   bash slurm/local_cluster.sh stop     # stops the daemons by pid (slurmd, slurmctld, munged)
#
# Partition: `debug` (default), all CPUs of this machine, no GPUs. Accounting is off (sacct does not work).
set -euo pipefail
RUN=/run/slurm

alive() { [ -s "$1" ] && [ -d "/proc/$(cat "$1")" ] && ! grep -q '^State:.*Z' "/proc/$(cat "$1")/status"; }

start() {
  [ "$(id -u)" -eq 0 ] || { echo "local_cluster.sh: must run as root" >&2; exit 2; }
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
  fi
  local host cpus mem
  host=$(hostname -s); cpus=$(nproc); mem=$(( $(awk '/MemTotal/{print $2}' /proc/meminfo) / 1024 - 1024 ))
  mkdir -p /run/munge /var/log/munge /var/lib/munge /etc/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge && chmod 0755 /run/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null
    chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
  fi
  munge -n >/dev/null 2>&1 || runuser -u munge -- /usr/sbin/munged
  mkdir -p /var/spool/slurmctld /var/spool/slurmd /var/log/slurm "$RUN" /etc/slurm
  cat > /etc/slurm/slurm.conf <<CONF
ClusterName=h2htalk-local
SlurmctldHost=${host}(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=${RUN}/slurmctld.pid
SlurmdPidFile=${RUN}/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
MinJobAge=600
KillWait=5
Waittime=0
NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${mem} State=UNKNOWN
PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
  printf 'ConstrainCores=no\nConstrainRAMSpace=no\n' > /etc/slurm/cgroup.conf
  alive "$RUN/slurmctld.pid" || /usr/sbin/slurmctld
  alive "$RUN/slurmd.pid" || /usr/sbin/slurmd
  for _ in $(seq 1 30); do
    sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && { sinfo; return 0; }
    sleep 1
  done
  echo "local_cluster.sh: the node did not become ready; see /var/log/slurm/" >&2
  exit 1
}

stop() {
  for f in "$RUN/slurmd.pid" "$RUN/slurmctld.pid" /run/munge/munged.pid; do
    if alive "$f"; then kill "$(cat "$f")" || true; fi
  done
}

status() { sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && sinfo; }

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start|status|stop" >&2; exit 2 ;;
esac
