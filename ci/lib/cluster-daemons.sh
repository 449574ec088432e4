# shellcheck shell=bash
# Sourced by ci/cluster: the daemons. MUNGE keys and munged (head and nodes), slurmctld and
# the slurmds (start, wait, restart), and the controller's view of the nodes (node_states,
# wait_states).

# new_key FILE: a fresh 1 KiB key, mode 0600. Keys are never printed.
new_key() {
  (umask 077 && dd if=/dev/urandom of="$1.new" bs=1024 count=1 status=none && mv -f "$1.new" "$1")
}

good_key_to() { install -m 0600 "$HEAD_MUNGE/munge.key" "$1/munge.key"; }

# munged_args DIR: every path explicit, so several munged can run side by side.
munged_args() {
  echo --force --num-threads=2 --socket="$1/munge.socket.2" --key-file="$1/munge.key" \
    --pid-file="$1/munged.pid" --log-file="$1/munged.log" --seed-file="$1/munged.seed"
}

start_munged_head() {
  # shellcheck disable=SC2046
  munged $(munged_args "$HEAD_MUNGE") </dev/null >>"$HEAD_MUNGE/munged.stderr" 2>&1 ||
    { log "munged (head) failed to start"; return 1; }
}

start_munged_node() { # NODE
  local m
  m=$(node_dir "$1")/munge
  # --origin=eth0: the credential origin is the node's management address.
  # shellcheck disable=SC2046
  in_node "$1" munged $(munged_args "$m") --origin=eth0 </dev/null >>"$m/munged.stderr" 2>&1 ||
    { log "munged ($1) failed to start"; return 1; }
}

wait_munged() { # DIR
  wait_pidfile "$1/munged.pid" 5 && [ -S "$1/munge.socket.2" ] ||
    { log "munged did not come up (${1#"$LC"/})"; return 1; }
}

restart_munged_node() { # NODE
  local m
  m=$(node_dir "$1")/munge
  stop_pidfiles "$m/munged.pid"
  start_munged_node "$1"
  wait_munged "$m"
}

# key_is_good NODE: the node's key equals the head's (compared, never shown).
key_is_good() { cmp -s "$HEAD_MUNGE/munge.key" "$(node_dir "$1")/munge/munge.key"; }

start_slurmctld() {
  # slurmctld insists that its hostname matches SlurmctldHost, so it gets its
  # own UTS namespace named "head" (and the cluster's /etc/hosts).
  unshare --uts --mount --propagation private -- /bin/sh -c \
    'hostname head && mount --bind "$1" /etc/hosts && exec slurmctld -f "$2"' \
    sh "$LC/etc/hosts" "$SLURM_CONF" </dev/null >>"$LC/head/slurmctld.stderr" 2>&1 ||
    { log "slurmctld failed to start"; return 1; }
  wait_pidfile "$LC/head/slurmctld.pid" 5 || { log "slurmctld did not stay up"; return 1; }
}

# The controller forks before it listens; slurmds registering too early just
# retry later, which would cost seconds.
wait_slurmctld_answers() {
  local dl
  dl=$(deadline_in 15)
  until timeout 5 scontrol ping 2>/dev/null | grep -q 'is UP'; do
    pid_of "$LC/head/slurmctld.pid" >/dev/null || { log "slurmctld exited"; return 1; }
    past "$dl" && { log "slurmctld does not answer"; return 1; }
    sleep 0.1
  done
}

start_slurmd() { # NODE
  local d
  d=$(node_dir "$1")
  rm -f "$d/slurmd.pid"
  in_node "$1" slurmd -f "$SLURM_CONF" -N "$1" </dev/null >>"$d/slurmd.stderr" 2>&1 ||
    { log "slurmd ($1) failed to start"; return 1; }
}

wait_slurmd() { # NODE
  wait_pidfile "$(node_dir "$1")/slurmd.pid" 5 || { log "slurmd ($1) did not stay up"; return 1; }
}

restart_slurmd() { # NODE
  stop_pidfiles "$(node_dir "$1")/slurmd.pid"
  start_slurmd "$1"
  wait_slurmd "$1"
}

scontrol_node() { # NODE ARGS...
  local n=$1; shift
  timeout 15 scontrol update nodename="$n" "$@"
}

# node_states: "NODE STATE" lines from the controller, or nothing (and false)
# when it does not answer. Every client call is bounded: with slurmctld gone a
# single sinfo blocks for MessageTimeout.
node_states() { timeout 5 sinfo -h -N -o '%N %t' 2>/dev/null; }

state_of() { # NODE
  node_states | awk -v n="$1" '$1 == n { print $2; exit }'
}

# wait_states SECONDS SPEC...: wait until each node matches; SPEC is
# NODE=REGEX (extended regex on sinfo's %t). Nodes without a SPEC must be idle.
# Fails early if the controller died.
wait_states() {
  local secs=$1 dl states n want ok spec; shift
  declare -A pat=()
  for n in "${NODES[@]}"; do pat[$n]='^idle$'; done
  for spec in "$@"; do pat[${spec%%=*}]=${spec#*=}; done
  dl=$(deadline_in "$secs")
  while :; do
    pid_of "$LC/head/slurmctld.pid" >/dev/null || { log "slurmctld is not running"; return 1; }
    if states=$(node_states); then
      ok=1
      for n in "${NODES[@]}"; do
        want=${pat[$n]}
        awk -v n="$n" -v w="$want" '$1 == n && $2 ~ w { f = 1 } END { exit !f }' <<<"$states" || ok=0
      done
      [ $ok -eq 1 ] && return 0
    fi
    if past "$dl"; then
      log "timed out after ${secs}s waiting for node states; last seen:"
      printf '  %s\n' ${states:+"$states"} >&2
      return 1
    fi
    sleep 0.2
  done
}
