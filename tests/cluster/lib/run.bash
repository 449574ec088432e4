# shellcheck shell=bash disable=SC2154,SC2034  # the variables that cluster_case sets, and those its cases read
# Sourced by tests/cluster/cluster_case for its cases, with expect.bash and install_binary.bash:
# gpuconform run on the cluster (srun, gpuconform launch, mpirun) with its outputs under $work,
# and what the cases do around a run (node3's lost binary, a checkpoint target, a rank's pid, a
# node's state). They read $LC, $work, $repo and $cluster, which cluster_case sets.

# run_gpuconform NAME SRUN_NODE_ARGS... -- GPUCONFORM_ARGS...
# Sets $status, $out (terminal output) and $junit.
run_gpuconform() {
  start_gpuconform "$@"
  wait_gpuconform
}

# start_gpuconform NAME SRUN_NODE_ARGS... -- GPUCONFORM_ARGS...: run_gpuconform's srun in the
# background, as job NAME. Sets $srun_pid, $out, $junit and $run_started (epoch seconds with
# fractions). RUN_LIMIT_S (default 150) is its timeout's: past it srun is sent SIGTERM.
start_gpuconform() {
  local name=$1
  shift
  local srun_args=()
  while [ "$1" != "--" ]; do srun_args+=("$1"); shift; done
  shift
  mkdir -p "$work" "$LC/shared/bin"
  install_binary
  junit="$work/$name.xml"
  out="$work/$name.out"
  # Both emptied now, not when the background srun starts: a case that polls $out at once must
  # not read the previous run's output (terminated-scancel once cancelled 2 s in on it).
  rm -f "$junit" "$out"
  # The Checkpoint suite's target: shared by every node at the same path.
  local checkpoint_dir=${CHECKPOINT_DIR:-$LC/shared/checkpoints}
  mkdir -p "$checkpoint_dir"
  run_started=$(date +%s.%N)
  # The dummy GPU devices live in each node's directory; %n is the node name.
  timeout -k 5 "${RUN_LIMIT_S:-150}" \
    srun --immediate=20 --ntasks-per-node=1 --gpus-per-node=8 --job-name="$name" --chdir="$LC/shared" "${srun_args[@]}" \
    "$LC/shared/bin/gpuconform" run --profile "${PROFILE:-local}" --junit "$junit" --color never \
    --checkpoint-dir "$checkpoint_dir" "$@" >"$out" 2>&1 &
  srun_pid=$!
}

# Waits for start_gpuconform's srun: sets $status and $ended (epoch seconds with fractions).
wait_gpuconform() {
  status=0
  wait "$srun_pid" || status=$?
  ended=$(date +%s.%N)
  echo "--- gpuconform exited $status; output:"
  cat "$out"
  echo "---"
}

# run_launch NAME [LAUNCH OPTIONS] [-- RUN OPTIONS]: `gpuconform launch` (-N3 unless given)
# from the head (outside any allocation), with --profile local --junit and the run options
# (default: judging Launch and Interfaces). Sets $status, $out, $junit and $elapsed; passes or
# fails "ended within $LAUNCH_LIMIT_S s" (default 120).
run_launch() {
  local name=$1 started limit=${LAUNCH_LIMIT_S:-120}
  shift
  local launch_args=() run_args=(--color never --filter 'Launch.*:Interfaces.*')
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do launch_args+=("$1"); shift; done
  if [ $# -gt 0 ]; then shift; run_args=("$@"); fi
  [ ${#launch_args[@]} -gt 0 ] || launch_args=(-N3)
  mkdir -p "$work" "$LC/shared/bin" "$LC/shared/checkpoints"
  install_binary
  junit="$work/$name.xml"
  out="$work/$name.out"
  rm -f "$junit"
  started=$(date +%s)
  set +e
  (cd "$LC/shared" && timeout -k 5 $((limit + 30)) "$LC/shared/bin/gpuconform" launch "${launch_args[@]}" \
    --immediate-s 20 -- --profile local --junit "$junit" "${run_args[@]}" >"$out" 2>&1)
  status=$?
  set -e
  elapsed=$(($(date +%s) - started))
  echo "--- gpuconform launch exited $status after ${elapsed} s; output:"
  cat "$out"
  echo "---"
  [ "$elapsed" -le "$limit" ] && pass "ended within $limit s (${elapsed} s)" || fail "took ${elapsed} s, over $limit s"
}

# Binds a wrapper over node3's gpuconform, in node3's own mount namespace: the image there
# lost the binary, so the task exits 127 as `sh` does for a command not found. The launch on
# the head and the other nodes keep the real one at the same path.
break_gpuconform_on_node3() {
  local wrapper="$LC/shared/bin/gpuconform-broken"
  printf '#!/bin/sh\n# node3 only: the image lost its gpuconform\n[ "$(hostname)" = node3 ] || exit 99\nexec /opt/image-lost-it/gpuconform "$@"\n' >"$wrapper"
  chmod 0755 "$wrapper"
  "$cluster" on node3 mount --bind "$wrapper" "$LC/shared/bin/gpuconform"
}

heal_gpuconform_on_node3() {
  "$cluster" on node3 umount "$LC/shared/bin/gpuconform" 2>/dev/null || true
}

# A checkpoint target holding one file of the user's, which no run may touch.
fresh_checkpoint_target() {
  target="$LC/shared/ckpt-target"
  rm -rf "$target" && mkdir -p "$target"
  echo "the user's own checkpoint" >"$target/user-step-100.pt"
}

# The pid of the gpuconform rank running on NODE ("" when none).
rank_pid_on() {
  local p
  for p in $(pgrep -f "^$LC/shared/bin/gpuconform run" || true); do
    if [ "$(ip netns identify "$p" 2>/dev/null)" = "$1" ]; then echo "$p"; return; fi
  done
}

# Starts a long Checkpoint run in the background ($srun_pid) and waits for its torture.
start_long_checkpoint_run() {
  mkdir -p "$work" && install_binary
  # --kill-on-bad-exit: when rank 0 is SIGKILLed the others end at once, instead of at the
  # stage deadline (GPUCONFORM_COLLECTIVE_TIMEOUT_S), which another case shows.
  GPUCONFORM_CHECKPOINT_KILLS=100000 timeout -k 5 120 srun --immediate=20 -N3 --ntasks-per-node=1 --job-name="$1" \
    --kill-on-bad-exit=1 \
    --chdir="$LC/shared" "$LC/shared/bin/gpuconform" run --profile local --checkpoint-dir "$target" \
    --filter 'Checkpoint.*' --color never >"$work/$1.out" 2>&1 &
  srun_pid=$!
  run_dir=""
  local deadline=$((SECONDS + 60))
  while [ -z "$run_dir" ] && [ $SECONDS -lt $deadline ]; do
    for d in "$target"/gpuconform-run-*; do
      [ -f "$d/torture.ckpt" ] && run_dir=$d
    done
    sleep 0.1
  done
  [ -n "$run_dir" ] && pass "$1: the run reached its crash torture in $run_dir" || fail "$1: no torture started"
}

# A run long enough to be cut in its middle, judged as it is: torchrun starts SECONDS late on
# every node (a wrapper in $LC/shared/bin), under a copy of the local profile whose
# torchrun.timeout_s allows for it. Sets PROFILE and GPUCONFORM_TORCHRUN.
slow_torchrun() {
  local delay=$1
  mkdir -p "$LC/shared/bin"
  printf '#!/bin/sh\n# torchrun, started %s s late\nsleep %s\nexec torchrun "$@"\n' "$delay" "$delay" \
    >"$LC/shared/bin/slow-torchrun"
  chmod 0755 "$LC/shared/bin/slow-torchrun"
  sed -e 's/^name: local$/name: local-slow-torchrun/' -e "s/^  timeout_s: 45$/  timeout_s: $((delay + 60))/" \
    "$repo/topologies/local.yaml" >"$LC/shared/local-slow-torchrun.yaml"
  grep -q "^  timeout_s: $((delay + 60))$" "$LC/shared/local-slow-torchrun.yaml" ||
    { fail "topologies/local.yaml no longer has torchrun.timeout_s 45 to lengthen"; finish; }
  export PROFILE="$LC/shared/local-slow-torchrun.yaml" GPUCONFORM_TORCHRUN="$LC/shared/bin/slow-torchrun"
}

# run_mpirun NAME -- GPUCONFORM_ARGS...: gpuconform on all three nodes without Slurm, the
# way an operator reaches a node that Slurm can no longer launch on (mpirun over ssh; here
# ci/lib/node-rsh stands in for ssh). Sets $status, $out and $junit.
run_mpirun() {
  local name=$1
  shift 2
  mkdir -p "$work" "$LC/shared/bin"
  install_binary
  junit="$work/$name.xml"
  out="$work/$name.out"
  rm -f "$junit"
  set +e
  # The agent must be where every node sees it: orteds read the same setting.
  cp "$repo/ci/lib/node-rsh" "$LC/shared/bin/node-rsh"
  (cd "$LC/shared" && OMPI_MCA_plm_rsh_agent="$LC/shared/bin/node-rsh" OMPI_MCA_plm_rsh_no_tree_spawn=1 timeout -k 5 150 \
    mpirun -H node1,node2,node3 -np 3 --map-by node \
    "$LC/shared/bin/gpuconform" run --profile local --junit "$junit" --color never "$@") >"$out" 2>&1
  status=$?
  set -e
  echo "--- gpuconform (mpirun) exited $status; output:"
  cat "$out"
  echo "---"
}

# Wait (wall clock) until the controller shows NODE in a state matching REGEX.
wait_for_state() {
  local node=$1 regex=$2 deadline=$((SECONDS + $3))
  while [ $SECONDS -lt $deadline ]; do
    if timeout 5 sinfo -h -n "$node" -o "%t" 2>/dev/null | grep -qE "$regex"; then return 0; fi
    sleep 1
  done
  return 1
}

# ensure_nodes N: the cluster has N nodes; otherwise it is brought down and up again with N (a
# few seconds). The cases that need 8 nodes run last, so the others keep the default 3.
ensure_nodes() {
  local want=$1 have
  have=$(tr -dc 0-9 <"$LC/etc/nodes.count" 2>/dev/null || true)
  [ "${have:-3}" = "$want" ] && return 0
  "$cluster" down >/dev/null
  "$cluster" up --nodes "$want"
}

# run_isolation_case NAME: the MPI sweep and its isolation on all 8 nodes (profile local-8mib,
# which floors 8 nodes), keeping the snapshot, the JSON report and a dry-run drain plan under
# $work/NAME. Passes or fails "ended in under 5 minutes"; sets $isolation_seconds.
run_isolation_case() {
  local name=$1 started
  rm -rf "${work:?}/$name" && mkdir -p "$work/$name"
  started=$(date +%s.%N)
  PROFILE="$LC/shared/local-8mib.yaml" RUN_LIMIT_S=330 run_gpuconform "$name" -N8 -- \
    --filter 'AllreduceBandwidth.Mpi*' --keep-snapshot "$work/$name/snap" --json "$work/$name/live.json" \
    --drain-plan "$work/$name/plan.json"
  isolation_seconds=$(seconds_between "$started")
  echo "isolation case $name: ${isolation_seconds} s (cluster/isolation.txt below)"
  cat "$work/$name/snap/cluster/isolation.txt" 2>/dev/null || true
  if awk -v s="$isolation_seconds" 'BEGIN { exit !(s < 300) }'; then
    pass "ended in ${isolation_seconds} s, under 5 minutes"
  else
    fail "took ${isolation_seconds} s, over 5 minutes"
  fi
}

# expect_isolation_record LINE ROUNDS: the case's cluster/isolation.txt has a test line holding
# LINE, and its last test is of round ROUNDS.
expect_isolation_record() {
  local file="$work/$case_name/snap/cluster/isolation.txt" rounds
  [ -f "$file" ] || { fail "no cluster/isolation.txt in the snapshot"; return; }
  grep -qF -- "$1" "$file" && pass "isolation.txt has '$1'" || fail "isolation.txt lacks '$1'"
  rounds=$(sed -n 's/^test round=\([0-9]*\) .*/\1/p' "$file" | sort -n | tail -1)
  [ "$rounds" = "$2" ] && pass "the isolation ran $2 round(s)" || fail "the isolation ran ${rounds:-no} round(s), expected $2"
}

# expect_isolation_codes TESTCASE CODES: every finding of TESTCASE in the JSON report has one of
# the comma-separated CODES, and there is one at least.
expect_isolation_codes() {
  local codes
  codes=$(jq -r --arg c "$1" '[.results[] | select(.check == $c) | .reasons[]?.code] | unique | join(",")' \
    "$work/$case_name/live.json" 2>/dev/null || true)
  [ "$codes" = "$2" ] && pass "$1's findings are all $2" || fail "$1's findings are '$codes', expected $2"
}

# expect_isolation_metric NAME VALUE: MpiFaultIsolation's metric NAME in the JSON report is VALUE.
expect_isolation_metric() {
  local value
  value=$(jq -r --arg m "$1" '[.results[] | select(.check == "MpiFaultIsolation") | .metrics[] |
    select(.name == $m) | .value] | first // "none"' "$work/$case_name/live.json" 2>/dev/null || echo none)
  [ "$value" = "$2" ] && pass "MpiFaultIsolation's $1 is $2" || fail "MpiFaultIsolation's $1 is $value, expected $2"
}

# expect_drained HOSTLIST: the dry-run drain plan drains exactly these nodes ("" for none).
expect_drained() {
  local drained
  drained=$(jq -r '[.nodes[] | select(.action == "drain") | .node] | join(",")' "$work/$case_name/plan.json" \
    2>/dev/null || echo "no plan")
  [ "$drained" = "$1" ] && pass "the drain plan drains '${1:-no node}'" || fail "the drain plan drains '$drained', expected '$1'"
}

# expect_replay_verdicts: the case's snapshot, replayed under the same profile, gives every case
# the live run's verdict and exits as it did.
expect_replay_verdicts() {
  local replay_status=0 live_status=$status
  "$LC/shared/bin/gpuconform" run --profile "$LC/shared/local-8mib.yaml" --snapshot "$work/$case_name/snap" \
    --filter 'AllreduceBandwidth.Mpi*' --color never --json "$work/$case_name/replay.json" \
    >"$work/$case_name/replay.out" 2>&1 || replay_status=$?
  [ "$replay_status" -eq "$live_status" ] && pass "the replay exits $replay_status as the live run did" ||
    fail "the replay exits $replay_status, the live run $live_status"
  if "$repo/tests/cluster/judge_cell" "$work/$case_name/replay.json" "$work/$case_name/live.json" "" none \
    "$replay_status" >/dev/null; then
    pass "every case of the replay has the live run's verdict"
  else
    fail "the replay's verdicts differ from the live run's"
  fi
}
