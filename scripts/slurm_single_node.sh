#!/usr/bin/env bash
# Tries the Slurm recipe (examples/scaleout/slurm-*.sbatch) on this machine:
# installs Slurm and MUNGE from the distribution's packages, starts a
# one-node cluster (controller and compute daemon here, as root), submits the
# shard array and the dependent merge job, and checks that the merged suite
# is byte-identical to an unsharded `generate` with the same seed.
#
#   sudo scripts/slurm_single_node.sh [CHARTSTRESS_BINARY]
#
# It rewrites /etc/slurm/slurm.conf: run it on a scratch machine only.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/target/release/chartstress}
[ -x "$bin" ] || { echo "no chartstress binary at $bin (cargo build --release)" >&2; exit 2; }
bin=$(realpath "$bin")
[ "$(id -u)" -eq 0 ] || { echo "run as root: it installs packages and starts daemons" >&2; exit 2; }

if ! command -v slurmctld >/dev/null 2>&1; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi

# MUNGE authenticates the daemons to each other.
if [ ! -s /etc/munge/munge.key ]; then
  mkdir -p /etc/munge
  dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key status=none
fi
mkdir -p /run/munge /var/lib/munge /var/log/munge
chown -R munge:munge /etc/munge /var/lib/munge /var/log/munge /run/munge
chmod 400 /etc/munge/munge.key
pgrep -x munged >/dev/null || runuser -u munge -- /usr/sbin/munged

host=$(hostname -s)
cpus=$(nproc)
mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=chartstress
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
SlurmctldPidFile=/run/slurmctld.pid
SlurmdPidFile=/run/slurmd.pid
# No cgroups in a container: track processes by parent id, bind nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF

pgrep -x slurmctld >/dev/null || slurmctld
pgrep -x slurmd >/dev/null || slurmd
for _ in $(seq 1 30); do
  sinfo -h -o %T 2>/dev/null | grep -qE '^(idle|mixed|allocated)' && break
  sleep 1
done
sinfo

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/logs"
ln -s "$bin" "$work/bin/chartstress"
cp "$here"/examples/scaleout/slurm-*.sbatch "$work/"
cd "$work"
export PATH="$work/bin:$PATH" SEED=7
jid=$(sbatch --parsable slurm-generate.sbatch)
mid=$(sbatch --parsable --kill-on-invalid-dep=yes --dependency=afterok:"$jid" slurm-merge.sbatch)
echo "submitted array $jid and merge $mid"
while squeue -h -j "$jid,$mid" 2>/dev/null | grep -q .; do sleep 2; done
sacct -j "$jid,$mid" -X -o JobID,JobName,State,Elapsed 2>/dev/null || true
[ -f suite/suite.json ] || { echo "merge did not write suite/ (logs in $work/logs)"; cat logs/*; exit 1; }

# A model run split the same way: four parts, then one merged run.
export ADAPTER=blind
rid=$(sbatch --parsable slurm-run.sbatch)
rmid=$(sbatch --parsable --kill-on-invalid-dep=yes --dependency=afterok:"$rid" slurm-merge-runs.sbatch)
echo "submitted run array $rid and merge $rmid"
while squeue -h -j "$rid,$rmid" 2>/dev/null | grep -q .; do sleep 2; done
[ -f suite/runs/blind/predictions.jsonl ] || { echo "merge-runs did not write suite/runs/blind"; cat logs/*; exit 1; }

# The reference: the same suite generated in one piece.
chartstress generate --seed 7 --out whole --quiet
chartstress run whole --adapter blind >/dev/null
answers() { python3 -c 'import json,sys; [print(json.dumps([r["id"], r["raw"], r["answer"]])) for r in map(json.loads, open(sys.argv[1]))]' "$1"; }
if diff <(answers suite/runs/blind/predictions.jsonl) <(answers whole/runs/blind/predictions.jsonl) >/dev/null; then
  echo "OK: the Slurm-merged run gives the same answers as one run ($(wc -l < suite/runs/blind/predictions.jsonl) predictions)"
else
  echo "FAIL: the merged run differs from one run"; exit 1
fi
rm -rf suite/runs whole/runs suite/cache whole/cache
if diff -r suite whole >/dev/null; then
  echo "OK: the Slurm-merged suite is byte-identical to the unsharded one ($(wc -l < suite/items.jsonl) items)"
else
  echo "FAIL: the merged suite differs from the unsharded one"; diff -rq suite whole | head; exit 1
fi
