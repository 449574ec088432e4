# shellcheck shell=bash
# Sourced by ci/cluster: the commands fault, faults and heal. Each fault is one file under
# ci/faults/FAMILY/KIND (see ci/faults/README.md); this finds, lists, injects and undoes them,
# and heal's generic repair puts every node back as `up` left it.

record_fault() { echo "$*" >>"$LC/faults"; } # KIND NODE [PEER]

# faulted NODE: a recorded fault names NODE (as its node or its peer).
faulted() {
  awk -v n="$1" '{ for (i = 2; i <= NF; i++) if ($i == n) f = 1 } END { exit !f }' "$LC/faults" 2>/dev/null
}

# fault_file KIND: the file that defines the fault.
fault_file() {
  local f
  for f in "$FAULTS_DIR"/*/"$1"; do
    [ -f "$f" ] && { echo "$f"; return 0; }
  done
  return 1
}

all_faults() { ls "$FAULTS_DIR"/*/* 2>/dev/null | sort; }

cmd_faults() {
  local f kind family
  [ "${1:-}" = --markdown ] && printf '| fault | family | default node | what it does |\n|---|---|---|---|\n'
  for f in $(all_faults); do
    kind=$(basename "$f")
    family=$(basename "$(dirname "$f")")
    (
      FAULT_NODE="" FAULT_HELP=""
      # shellcheck source=/dev/null
      . "$f"
      if [ "${1:-}" = --markdown ]; then
        printf '| `%s` | %s | %s | %s |\n' "$kind" "$family" "$FAULT_NODE" "$FAULT_HELP"
      else
        printf '%-22s %-8s %-6s %s\n' "$kind" "$family" "$FAULT_NODE" "$FAULT_HELP"
      fi
    )
  done
}

cmd_fault() {
  local kind=${1:-} node=${2:-} peer=${3:-} file
  [ $# -le 3 ] || die "usage: ci/cluster fault KIND [NODE [PEER]]"
  need_root
  load_settings
  pid_of "$LC/head/slurmctld.pid" >/dev/null || die "the cluster is not up"
  file=$(fault_file "$kind") || die "unknown fault '$kind' ($(all_faults | xargs -n1 basename | paste -sd, -))"
  (
    FAULT_PEER=0
    # shellcheck source=/dev/null
    . "$file"
    # A default node past the last one (node3 on a 2-node cluster) means the last node.
    if [ -z "$node" ]; then
      node=$FAULT_NODE
      [ "$(node_idx "$node")" -le ${#NODES[@]} ] || node=${NODES[-1]}
    fi
    valid_node "$node"
    if [ -n "$peer" ]; then
      [ "${FAULT_PEER:-0}" = 1 ] || die "fault $kind takes one node, not a peer"
      valid_node "$peer"
      [ "$peer" != "$node" ] || die "fault $kind: the peer must be another node than $node"
    fi
    record_fault "$kind" "$node" ${peer:+"$peer"}
    inject "$node" ${peer:+"$peer"}
    log "fault $kind injected on $node${peer:+ and $peer}"
  )
}

# Each recorded fault's own undo, where its file has one (mounts, stopped daemons); the
# generic repair in cmd_heal does the rest.
heal_recorded_faults() {
  local kind node peer file
  [ -f "$LC/faults" ] || return 0
  while read -r kind node peer; do
    file=$(fault_file "$kind") || continue
    (
      # shellcheck source=/dev/null
      . "$file"
      if declare -F heal >/dev/null; then heal "$node" ${peer:+"$peer"}; fi
    ) || log "could not undo $kind on $node"
  done <"$LC/faults"
}

cmd_heal() {
  local n d restart
  need_root
  load_settings
  pid_of "$LC/head/slurmctld.pid" >/dev/null || die "the cluster is not up (slurmctld not running)"
  if grep -q '^HealthCheckProgram' "$SLURM_CONF"; then
    sed -i '/^HealthCheck/d' "$SLURM_CONF"
    scontrol reconfigure || die "scontrol reconfigure failed"
  fi
  heal_recorded_faults
  write_gres_conf
  make_gpu_devices
  for n in "${NODES[@]}"; do
    # The network faults (ci/faults/network) may have shaped ens1, changed its MTU or state, or
    # added unreachable routes: put all of it back. Where none did, there is nothing to delete.
    ip netns exec "$n" tc qdisc del dev ens1 root 2>/dev/null || true
    ip -n "$n" link set ens1 mtu 1500 up 2>/dev/null || true
    for d in $(ip -n "$n" route show type unreachable 2>/dev/null | awk '{print $2}'); do
      ip -n "$n" route del unreachable "$d" 2>/dev/null || true
    done
    d=$(node_dir "$n")
    restart=0
    # A faulted node is restarted even if it looks fine now: its slurmd then
    # re-registers at once instead of waiting for the next controller ping.
    faulted "$n" && restart=1
    if ! key_is_good "$n" || ! pid_of "$d/munge/munged.pid" >/dev/null; then
      good_key_to "$d/munge"
      restart_munged_node "$n" || { show_logs; die "could not restart munged on $n"; }
      restart=1
    fi
    pid_of "$d/slurmd.pid" >/dev/null || restart=1
    if [ $restart -eq 1 ]; then
      restart_slurmd "$n" || { show_logs; die "could not restart slurmd on $n"; }
    fi
  done
  # Jobs stuck in CG after a munge fault do not clear by themselves; DOWN
  # then RESUME clears them and any drain/invalid state.
  for n in "${NODES[@]}"; do
    scontrol_node "$n" state=down reason=reset || die "scontrol update $n state=down failed"
    # A slurmd that registers between the two updates has already returned the node to
    # service (ReturnToService), and the controller then refuses the resume.
    if ! scontrol_node "$n" state=resume 2>/dev/null; then
      case $(sinfo -h -n "$n" -o %t 2>/dev/null) in
        idle* | alloc* | mix*) ;;
        *) die "scontrol update $n state=resume failed" ;;
      esac
    fi
  done
  rm -f "$LC/faults"
  wait_states "${HEAL_TIMEOUT:-60}" || { show_logs; die "nodes did not return to idle"; }
  log "healed: all nodes idle"
}
