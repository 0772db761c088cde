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
mkdir -p "$dir"/{state,log} "$short"/{spool,munge}
chmod 700 "$short/munge"
host=$(hostname -s)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  sleep 0.5
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
SlurmctldPort=${QTUNE_SLURM_PORT:-16817}
SlurmdPort=$(( ${QTUNE_SLURM_PORT:-16817} + 1 ))
ReturnToService=2
MpiDefault=none
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$dir/slurm.conf"
/usr/sbin/slurmctld -f "$SLURM_CONF" -i >/dev/null 2>&1 &
sleep 1
[ -f "$dir/slurmctld.pid" ] && pids+=($(cat "$dir/slurmctld.pid"))
/usr/sbin/slurmd -f "$SLURM_CONF" -N "$host" >/dev/null 2>&1 &
sleep 1
[ -f "$dir/slurmd.pid" ] && pids+=($(cat "$dir/slurmd.pid"))
for i in $(seq 1 240); do # up to 2 minutes: slow to register on a loaded machine
  if sinfo -h -o %T 2>/dev/null | grep -q idle; then break; fi
  sleep 0.5
done
if ! sinfo -h -o %T 2>/dev/null | grep -q idle; then
  echo "slurm-cluster: the node did not come up"; sinfo 2>&1; tail -20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log"
  exit 1
fi
echo "slurm-cluster: up ($host)"
"$@"
