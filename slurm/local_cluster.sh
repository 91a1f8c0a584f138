#!/usr/bin/env bash
# A real single-node Slurm cluster on 127.0.0.1, for tests and demos (root, Debian; no systemd needed).
#
#   bash slurm/local_cluster.sh start [--force]  # apt-installs slurmctld/slurmd/slurm-client/munge if missing, starts them
#   bash slurm/local_cluster.sh status           # prints sinfo; exit 0 when the node is usable
#   bash slurm/local_cluster.sh stop             # stops the daemons this script started, and only those
#
# Partition: `debug` (default), all CPUs of this machine, no GPUs. Accounting is off (sacct does not work).
#
# Existing setups are left alone:
#   - slurm.conf: written only when absent or written by this script (ClusterName=h2htalk-local). Any other
#     slurm.conf or cgroup.conf makes `start` stop with exit code 3, unless --force (or H2HTALK_SLURM_FORCE=1)
#     is given; then the old files are kept as <file>.h2htalk-bak.<time>.
#   - the munge key is created only when there is none; an existing key is used, never overwritten.
#   - daemons already running (munged, slurmctld, slurmd) are used, not restarted. `start` records the pids of
#     the daemons it starts in $H2HTALK_SLURM_STATE/started; `stop` kills only those.
#
# Environment (defaults in brackets):
#   H2HTALK_SLURM_ETC    directory of slurm.conf and cgroup.conf [/etc/slurm]
#   H2HTALK_SLURM_STATE  where the pids of started daemons are recorded [/run/h2htalk-local-cluster]
#   H2HTALK_SLURM_FORCE  1: replace a slurm.conf/cgroup.conf this script did not write (as --force)
#   H2HTALK_SLURM_FAKE_GPUS  N > 0: declare N generic resources `gpu` with no device behind them [0], so that
#                        `srun --gres=gpu:1` (what SlurmRunner asks for a model with run_cfg.num_gpus=1) is accepted
#                        and Slurm runs at most N such jobs at once. bench/validate_costmodel.py uses N=1 to make
#                        the node's one vLLM-sized CPU slot the "GPU" that the sweep partitioner plans for.
set -euo pipefail
RUN=/run/slurm
ETC=${H2HTALK_SLURM_ETC:-/etc/slurm}
STATE=${H2HTALK_SLURM_STATE:-/run/h2htalk-local-cluster}
MARK='ClusterName=h2htalk-local'
if [ "$ETC" != /etc/slurm ]; then export SLURM_CONF="$ETC/slurm.conf"; fi

say() { echo "local_cluster.sh: $*" >&2; }
running() { [ -d "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null; }
alive() { [ -s "$1" ] && running "$(cat "$1")"; }
ours_conf() { [ -f "$ETC/slurm.conf" ] && grep -qx "$MARK" "$ETC/slurm.conf"; }

# Exit 3 when slurm.conf or cgroup.conf exist and were not written by this script (and --force is not given).
check_config() {
  local force=$1 foreign=()
  if [ -e "$ETC/slurm.conf" ] && ! ours_conf; then foreign+=("$ETC/slurm.conf"); fi
  if [ -e "$ETC/cgroup.conf" ] && ! ours_conf; then foreign+=("$ETC/cgroup.conf"); fi
  [ ${#foreign[@]} -eq 0 ] && return 0
  if [ "$force" != 1 ]; then
    say "refusing to overwrite ${foreign[*]}: not written by this script (no '$MARK')."
    say "This machine already has a Slurm configuration. Use it as it is, or rerun with --force"
    say "(or H2HTALK_SLURM_FORCE=1) to replace it; the old files are then kept as <file>.h2htalk-bak.<time>."
    exit 3
  fi
  local f stamp
  stamp=$(date +%Y%m%d%H%M%S)
  for f in "${foreign[@]}"; do
    cp -p "$f" "$f.h2htalk-bak.$stamp"
    say "--force: replacing $f (kept as $f.h2htalk-bak.$stamp)"
  done
}

# Records that this script started daemon $1 whose pid file is $2.
record() {
  local i
  for i in $(seq 1 50); do alive "$2" && break; sleep 0.1; done
  alive "$2" || { say "$1 did not write $2"; return 1; }
  mkdir -p "$STATE"
  echo "$1 $(cat "$2")" >> "$STATE/started"
}

start() {
  local force=${H2HTALK_SLURM_FORCE:-0}
  case "${1:-}" in
    --force) force=1 ;;
    '') ;;
    *) say "unknown option $1 (usage: start [--force])"; exit 2 ;;
  esac
  check_config "$force"    # before anything is installed or started
  [ "$(id -u)" -eq 0 ] || { say "must run as root"; exit 2; }
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends slurmctld slurmd slurm-client munge >/dev/null
  fi
  local host cpus mem fake_gpus=${H2HTALK_SLURM_FAKE_GPUS:-0} gres_type='' node_gres=''
  [[ "$fake_gpus" =~ ^[0-9]+$ ]] || { say "H2HTALK_SLURM_FAKE_GPUS must be a count, got '$fake_gpus'"; exit 2; }
  if [ "$fake_gpus" -gt 0 ]; then gres_type='GresTypes=gpu'; node_gres=" Gres=gpu:${fake_gpus}"; fi
  host=$(hostname -s); cpus=$(nproc); mem=$(( $(awk '/MemTotal/{print $2}' /proc/meminfo) / 1024 - 1024 ))
  mkdir -p /run/munge /var/log/munge /var/lib/munge /etc/munge
  chown munge:munge /run/munge /var/log/munge /var/lib/munge && chmod 0755 /run/munge
  if [ -s /etc/munge/munge.key ]; then
    say "using the existing munge key /etc/munge/munge.key"
  else
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=1024 2>/dev/null
    chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
    say "created the munge key /etc/munge/munge.key"
  fi
  if munge -n >/dev/null 2>&1; then
    say "munged is already running: using it (stop will leave it running)"
  else
    runuser -u munge -- /usr/sbin/munged
    record munged /run/munge/munged.pid
  fi
  mkdir -p /var/spool/slurmctld /var/spool/slurmd /var/log/slurm "$RUN" "$ETC"
  cat > "$ETC/slurm.conf" <<CONF
# Written by opencompass-h2htalk slurm/local_cluster.sh (a one-node test cluster); it rewrites this file.
${MARK}
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
${gres_type}
NodeName=${host} NodeAddr=127.0.0.1 CPUs=${cpus} RealMemory=${mem}${node_gres} State=UNKNOWN
PartitionName=debug Nodes=${host} Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
  printf '# Written by opencompass-h2htalk slurm/local_cluster.sh\nConstrainCores=no\nConstrainRAMSpace=no\n' \
    > "$ETC/cgroup.conf"
  # gres.conf: only for H2HTALK_SLURM_FAKE_GPUS; one this script wrote earlier is removed when no longer wanted.
  if [ "$fake_gpus" -gt 0 ]; then
    if [ -e "$ETC/gres.conf" ] && ! grep -qx "# ${MARK}" "$ETC/gres.conf"; then
      say "refusing to overwrite $ETC/gres.conf: not written by this script"; exit 3
    fi
    printf '# Written by opencompass-h2htalk slurm/local_cluster.sh: %s gpu slots with no device behind them\n# %s\nName=gpu Count=%s File=/dev/null\n' \
      "$fake_gpus" "$MARK" "$fake_gpus" > "$ETC/gres.conf"
  elif [ -e "$ETC/gres.conf" ] && grep -qx "# ${MARK}" "$ETC/gres.conf"; then
    rm -f "$ETC/gres.conf"
  fi
  if alive "$RUN/slurmctld.pid"; then
    say "slurmctld is already running (pid $(cat "$RUN/slurmctld.pid")): using it"
  else
    /usr/sbin/slurmctld -f "$ETC/slurm.conf"
    record slurmctld "$RUN/slurmctld.pid"
  fi
  if alive "$RUN/slurmd.pid"; then
    say "slurmd is already running (pid $(cat "$RUN/slurmd.pid")): using it"
  else
    /usr/sbin/slurmd -f "$ETC/slurm.conf"
    record slurmd "$RUN/slurmd.pid"
  fi
  for _ in $(seq 1 30); do
    sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && { sinfo; return 0; }
    sleep 1
  done
  say "the node did not become ready; see /var/log/slurm/"
  exit 1
}

stop() {
  local name pid left=()
  if [ ! -s "$STATE/started" ]; then
    say "nothing to stop: no daemon was started by this script (no $STATE/started)"
    return 0
  fi
  # Reverse order of start: slurmd, slurmctld, munged.
  while read -r name pid; do
    # Only a live process with the recorded name: a recycled pid must not be killed.
    if running "$pid" && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$name" ]; then
      kill "$pid" 2>/dev/null || true
      left+=("$pid")
    else
      say "$name (pid $pid) is no longer running"
    fi
  done < <(tac "$STATE/started")
  for _ in $(seq 1 100); do
    local still=0
    for pid in "${left[@]}"; do running "$pid" && still=1; done
    [ "$still" -eq 0 ] && break
    sleep 0.1
  done
  rm -f "$STATE/started"
}

status() { sinfo -h -o '%T' 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && sinfo; }

case "${1:-}" in
  start) start "${2:-}" ;;
  stop) stop ;;
  status) status ;;
  *) echo "usage: $0 start [--force]|status|stop" >&2; exit 2 ;;
esac
