#!/bin/bash
# Starts a throw-away single-node Slurm (munged, slurmctld, slurmd) in DIR, runs the command
# after '--' with SLURM_CONF pointing at it, and stops the daemons on exit (trap).
#   slurm_cluster.sh DIR -- COMMAND...
# Exit 1, naming what is missing, when the Slurm or munge binaries are.
set -u
dir=$1; shift; [ "$1" = "--" ] && shift
for b in munged slurmctld slurmd srun sinfo; do
  p=$(command -v $b || ls /usr/sbin/$b 2>/dev/null)
  if [ -z "$p" ]; then echo "slurm-cluster: '$b' is missing; install slurm-wlm and munge (scripts/setup-deps.sh test)"; exit 1; fi
done
# Unix sockets (munge's, and the job steps' in slurmd's spool folder) live in a short private
# folder under /tmp: a socket path is at most 108 bytes, and DIR can be deep in the build tree.
short=$(mktemp -d /tmp/qsl.XXXXXX) || { echo "slurm-cluster: mktemp failed"; exit 1; }
mkdir -p "$dir"/{state,log} "$short"/{spool,munge,dev}
# Eight GPUs for the GRES tests: slurmd wants a character device per File= entry and opens none
# (no cgroup device constraint here), so each is a link to /dev/null.
for i in 0 1 2 3 4 5 6 7; do ln -s /dev/null "$short/dev/gpu$i"; done
chmod 700 "$short/munge"
host=$(hostname -s)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  for _ in $(seq 1 100); do # up to 10 s for the daemons to stop, then no more waiting
    alive=0
    for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ $alive = 0 ] && break
    sleep 0.1
  done
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$short"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP # a signal ends the script through the EXIT trap too
# munge: a private key and socket, so nothing system-wide is touched.
m=$short/munge
dd if=/dev/urandom bs=1 count=1024 of="$m/munge.key" 2>/dev/null
chmod 400 "$m/munge.key"
user=$(id -un)
[ "$user" = root ] && chown root "$m" "$m/munge.key"
/usr/sbin/munged --key-file="$m/munge.key" --socket="$m/munge.socket" \
  --pid-file="$m/munged.pid" --log-file="$dir/log/munged.log" --seed-file="$m/seed" \
  --force >/dev/null 2>&1 || { echo "slurm-cluster: munged failed"; cat "$dir/log/munged.log"; exit 1; }
pids+=($(cat "$m/munged.pid"))
# Two TCP ports nobody listens on (QTUNE_SLURM_PORT and the next one if set): a fixed pair could
# be taken by another program, or by a cluster of an earlier run that is still stopping.
if [ -n "${QTUNE_SLURM_PORT:-}" ]; then
  ports="$QTUNE_SLURM_PORT $((QTUNE_SLURM_PORT + 1))"
else
  ports=$(/usr/bin/python3 -c '
import socket
s = [socket.socket() for _ in range(2)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
fi
read -r ctld_port slurmd_port <<<"$ports"
cat > "$dir/slurm.conf" <<CONF
ClusterName=qtune
SlurmctldHost=$host
SlurmUser=$user
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$m/munge.socket
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
# Cores only (not memory) are consumable: without it each step takes the whole node's memory
# and two evaluations can never overlap.
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
StateSaveLocation=$dir/state
SlurmdSpoolDir=$short/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
GresTypes=gpu
NodeName=$host CPUs=2 Gres=gpu:8 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# slurmd reads gres.conf next to slurm.conf. File= entries make Slurm name the GPUs it gives a
# step (SLURM_STEP_GPUS, CUDA_VISIBLE_DEVICES); a count-only entry (Count=8) would not.
cat > "$dir/gres.conf" <<GRES
AutoDetect=off
Name=gpu File=$short/dev/gpu[0-7]
GRES
export SLURM_CONF="$dir/slurm.conf"
# In the foreground (-D) and in the background of this script: $! is the daemon itself, known at
# once, so the trap stops it however slowly it starts.
/usr/sbin/slurmctld -D -f "$SLURM_CONF" -i >/dev/null 2>&1 &
pids+=($!)
/usr/sbin/slurmd -D -f "$SLURM_CONF" -N "$host" >/dev/null 2>&1 &
pids+=($!)
for i in $(seq 1 600); do # up to 5 minutes: slow to register on a loaded machine
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then break; fi
  sleep 0.5
done
if ! sinfo -h -o %T 2>/dev/null | grep -q idle; then
  echo "slurm-cluster: the node did not come up"; sinfo 2>&1; tail -20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log"
  exit 1
fi
echo "slurm-cluster: up ($host)"
"$@"
