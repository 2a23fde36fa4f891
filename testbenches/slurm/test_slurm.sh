#!/usr/bin/env bash
# gtlm reproduce --backend slurm on a real single-node SLURM cluster started here: munged,
# slurmctld and slurmd on localhost with a generated slurm.conf (one node, 2 CPUs) in a temporary
# folder. A small experiment runs through sbatch (job array) and squeue; its tables and every
# point's statistics must equal the local backend's bit for bit, a failing point must be recorded
# the same way, and a re-run must submit nothing. Everything started here is stopped on exit.
# Exit: 0 pass, 1 fail, 77 skipped (SLURM or munge not installed, or the cluster cannot start
# here: the reason is printed). Needs the Debian packages slurmctld slurmd slurm-client munge.
# usage: test_slurm.sh GTLM_BINARY SOURCE_DIR
set -uo pipefail
gtlm=$1
src=$2
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo; do
    command -v "$tool" >/dev/null 2>&1 || [ -x "/usr/sbin/$tool" ] ||
        skip "$tool is not installed (tools/setup.sh installs slurmctld slurmd slurm-client munge)"
done
export PATH=$PATH:/usr/sbin

# munged refuses a socket below a folder that not everyone may enter: 0755 from the top.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/gtlm-slurm.XXXXXX") || fail "mktemp"
chmod 755 "$tmp"
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$p" 2>/dev/null
        wait "$p" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' TERM INT HUP # a timeout or ^C still stops the daemons

user=$(id -un)
host=$(hostname -s)
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log" "$tmp/run"
chmod 755 "$tmp/munge"
mungekey -c -k "$tmp/munge/key" -b 1024 >/dev/null 2>&1 || skip "mungekey cannot create a key"
chmod 600 "$tmp/munge/key"
munged -F --key-file="$tmp/munge/key" --socket="$tmp/munge/sock" --pid-file="$tmp/munge/pid" \
    --seed-file="$tmp/munge/seed" >"$tmp/log/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$tmp/munge/sock" ] && break; sleep 0.1; done
[ -S "$tmp/munge/sock" ] || { cat "$tmp/log/munged.log"; skip "munged does not start here (log above)"; }

# Two free ports: the first pair of a few candidates that nothing listens on.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
ctl=""
for base in $((20000 + RANDOM % 20000)) $((20000 + RANDOM % 20000)) $((20000 + RANDOM % 20000)); do
    if port_free "$base" && port_free $((base + 1)); then ctl=$base; break; fi
done
[ -n "$ctl" ] || skip "no two free TCP ports found"

conf=$tmp/slurm.conf
cat >"$conf" <<EOF
ClusterName=gtlmtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctl
SlurmdPort=$((ctl + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$tmp/munge/sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$tmp/log/jobcomp.txt
SelectType=select/cons_tres
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
ReturnToService=2
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/run/slurmctld.pid
SlurmdPidFile=$tmp/run/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
MpiDefault=none
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF=$conf
slurmctld -D -f "$conf" >"$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$conf" >"$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 150); do
    state=$(sinfo -h -o %T 2>/dev/null | head -n 1)
    [ "$state" = idle ] && break
    sleep 0.2
done
if [ "$state" != idle ]; then
    tail -n 20 "$tmp"/log/*
    skip "the local SLURM node did not become idle (state '$state'; logs above)"
fi
echo "SLURM up: node $host idle, SLURM_CONF=$conf"

# The experiment: two workloads, two configurations, an oracle, and one point that fails.
exp=$tmp/exp
mkdir -p "$exp"
cat >"$exp/spec" <<EOF
workload sdk/VectorAdd label=VA class=a
workload rodinia/HotSpot label=HS class=b
config base $src/configs/tiny.config
config fast $src/configs/tiny.config -gpgpu_l1_latency 1 -rop_latency 10
config broken $src/configs/tiny.config
args HS broken --corrupt-output
oracle best best-of base fast by gpu_tot_sim_cycle
metric speedup speedup gpu_tot_sim_cycle
figure speedups speedup configs=base,fast,best,broken means=geomean,amean
EOF
echo "claim speedups fast geomean 1.1 base shorter latencies are faster" >"$exp/numbers"

"$gtlm" reproduce "$exp" --no-plots --out "$tmp/local" >"$tmp/local.txt" 2>&1
[ $? -eq 1 ] || { cat "$tmp/local.txt"; fail "the local run should exit 1 (one point fails)"; }
"$gtlm" reproduce "$exp" --no-plots --backend slurm --shared "$tmp/shared" --out "$tmp/slurm" >"$tmp/slurm.txt" 2>&1
code=$?
cat "$tmp/slurm.txt"
[ $code -eq 1 ] || fail "the SLURM run should exit 1 (one point fails), got $code"
grep -q "submitted 6 point(s) as SLURM job array" "$tmp/slurm.txt" || fail "no job array submitted"
[ -s "$tmp/log/jobcomp.txt" ] || fail "SLURM recorded no finished task (jobcomp file empty)"
tasks=$(grep -c "JobState=" "$tmp/log/jobcomp.txt")
[ "$tasks" -eq 6 ] || fail "SLURM ran $tasks tasks, expected 6"

# The simulated statistics, without the host's wall-time figures (gpgpu_simulation_time,
# gpgpu_simulation_rate*, gpgpu_silicon_slowdown), which differ from run to run by nature.
host='^(gpgpu_simulation_|gpgpu_silicon_slowdown|host\.)'
simulated_csv() {
    awk -F, -v host="$host" 'NR == 1 { for (i = 1; i <= NF; i++) keep[i] = $i !~ host }
        { line = ""; for (i = 1; i <= NF; i++) if (keep[i]) line = line $i ","; print line }' "$1"
}
for f in report.md speedups.csv speedups.plot.csv; do
    cmp "$tmp/local/$f" "$tmp/slurm/$f" || { diff "$tmp/local/$f" "$tmp/slurm/$f"; fail "$f differs between backends"; }
done
cmp <(simulated_csv "$tmp/local/results.csv") <(simulated_csv "$tmp/slurm/results.csv") ||
    fail "results.csv differs between backends"
compared=0
for d in "$tmp"/local/*__*; do
    p=$(basename "$d")
    for f in status args; do
        cmp "$d/$f" "$tmp/slurm/$p/$f" || fail "$p/$f differs between the local and the SLURM backend"
    done
    [ -f "$d/stats.txt" ] || continue
    cmp <(grep -Ev "$host" "$d/stats.txt") <(grep -Ev "$host" "$tmp/slurm/$p/stats.txt") ||
        fail "$p/stats.txt differs between the local and the SLURM backend"
    compared=$((compared + 1))
done
[ "$compared" -eq 6 ] || fail "compared the statistics of $compared points, expected 6"
grep -qx "failed 1" "$tmp/slurm/broken__rodinia_HotSpot/status" || fail "the failed task is not recorded as 'failed 1'"

# Re-running submits only what is missing: the failed point, nothing else.
"$gtlm" reproduce "$exp" --no-plots --backend slurm --shared "$tmp/shared" --out "$tmp/slurm" >"$tmp/again.txt" 2>&1
grep -q "submitted 1 point(s)" "$tmp/again.txt" || { cat "$tmp/again.txt"; fail "a re-run must submit only the failed point"; }
cmp "$tmp/local/report.md" "$tmp/slurm/report.md" || fail "the re-run's report differs"
echo "PASS: SLURM and local backends agree bit for bit ($tasks array tasks, re-run submitted 1)"
