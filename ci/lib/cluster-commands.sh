# shellcheck shell=bash
# Sourced by ci/cluster: the commands up, down (teardown), status, on, env, health-check and
# collect-logs.

cmd_up() {
  local n bad=${FAULT_MUNGE_NODE:-} t0 specs=() count=${UP_NODE_COUNT:-$DEFAULT_NODE_COUNT}
  while [ $# -gt 0 ]; do
    case $1 in
      --nodes) [ $# -ge 2 ] || die "--nodes needs a count"; count=$2; shift 2 ;;
      --nodes=*) count=${1#--nodes=}; shift ;;
      *) die "up: unknown argument '$1' (usage: ci/cluster up [--nodes N])" ;;
    esac
  done
  # Checked before anything is torn down: a bad count leaves a running cluster as it is.
  valid_node_count "$count" || die "the node count must be a whole number from 2 to $MAX_NODE_COUNT, got '$count'"
  need_root; need_tools
  [ -x "$NODE_INIT" ] || die "missing helper $NODE_INIT"
  GPUS=${GPUS:-8} GPU_TYPE=${GPU_TYPE:-} MGMT_RATE=${MGMT_RATE:-100mbit}
  [[ $GPUS =~ ^[1-9][0-9]?$ ]] || die "GPUS must be 1..99, got '$GPUS'"
  [[ $GPU_TYPE =~ ^[A-Za-z0-9_-]*$ ]] || die "GPU_TYPE must be alphanumeric, got '$GPU_TYPE'"
  [[ $MGMT_RATE =~ ^[0-9.]+[a-zA-Z]*$ ]] || die "bad MGMT_RATE '$MGMT_RATE'"
  [ -z "$bad" ] || valid_node "$bad" "$count"
  t0=$(now)

  # The leftovers are the recorded cluster's nodes (NODES still lists them); from here on the
  # new count's.
  teardown quiet
  set_nodes "$count"
  drop_other_node_dirs
  # Fresh logs: checks below grep them, and stale lines would mislead.
  rm -f "$LC/head"/slurmctld.{log,stderr} "$HEAD_MUNGE"/munged.{log,stderr} \
    "$LC"/nodes/node*/{slurmd.log,slurmd.stderr,holder.log} "$LC"/nodes/node*/munge/munged.{log,stderr}
  make_dirs
  # Recorded before any namespace exists, so a bring-up that fails half way is still torn
  # down whole.
  echo "$count" >"$LC/etc/nodes.count"
  write_configs
  rm -f "$LC/faults"
  note_netns_dir
  net_up

  for n in "${NODES[@]}"; do start_holder "$n"; done
  for n in "${NODES[@]}"; do wait_holder "$n" || { show_logs; exit 1; }; done

  # One 1 KiB key, one 0600 copy per munge dir.
  new_key "$HEAD_MUNGE/munge.key"
  for n in "${NODES[@]}"; do
    if [ "$n" = "$bad" ]; then
      new_key "$(node_dir "$n")/munge/munge.key"
      record_fault munge-key-differs "$n"
    else
      good_key_to "$(node_dir "$n")/munge"
    fi
  done
  start_munged_head || { show_logs; exit 1; }
  for n in "${NODES[@]}"; do start_munged_node "$n" || { show_logs; exit 1; }; done
  wait_munged "$HEAD_MUNGE" || { show_logs; exit 1; }
  for n in "${NODES[@]}"; do wait_munged "$(node_dir "$n")/munge" || { show_logs; exit 1; }; done

  start_slurmctld || { show_logs; exit 1; }
  wait_slurmctld_answers || { show_logs; exit 1; }
  for n in "${NODES[@]}"; do start_slurmd "$n" || { show_logs; exit 1; }; done
  for n in "${NODES[@]}"; do wait_slurmd "$n" || { show_logs; exit 1; }; done

  [ -z "$bad" ] || specs=("$bad=^(unk|down)")
  if ! wait_states "${UP_TIMEOUT:-30}" "${specs[@]}"; then
    show_logs
    die "cluster did not come up (inspect with: ci/cluster collect-logs DIR; then ci/cluster down)"
  fi
  if [ -n "$bad" ] && ! wait_log "$LC/head/slurmctld.log" 'Munge decode failed|authentication error' 10; then
    show_logs
    die "$bad has a wrong munge key but the controller logged no authentication error"
  fi
  log "up in $(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }') s: ${NODES[*]}${bad:+ ($bad has a wrong munge key: never registers, shown as unk)}"
  log "use: eval \"\$($0 env)\""
}

# A larger cluster before this one left the state directories of nodes that are no longer part
# of it; their stale logs would otherwise end up in show_logs and collect-logs. Teardown has just
# checked that nothing is mounted below $LC.
drop_other_node_dirs() {
  local d
  [ -e "$MARKER" ] || return 0
  for d in "$LC"/nodes/node*; do
    [ -d "$d" ] || continue
    [[ " ${NODES[*]} " == *" ${d##*/} "* ]] || rm -rf "$d"
  done
}

# teardown [quiet]: stop by PID what this script started, in dependency order.
teardown() {
  local n d h p pids f cmd
  # 1. slurmds first (they would otherwise try to re-register), then the
  #    controller, then every munged.
  pids=()
  for n in "${NODES[@]}"; do
    if p=$(pid_of "$(node_dir "$n")/slurmd.pid"); then pids+=("$p"); fi
  done
  stop_pids "${pids[@]}"
  stop_pidfiles "$LC/head/slurmctld.pid"
  stop_pidfiles "$HEAD_MUNGE/munged.pid" "$LC"/nodes/node*/munge/munged.pid

  # 2. Whatever else is still inside a node (slurmstepd, job tasks, anything
  #    started with `on`): SIGKILL all but the holder, and never this script or
  #    its callers (a caller that entered a node would otherwise die silently).
  #    Each one is named, so a teardown that ends a test is explained in its log.
  local keep
  keep=" $(ancestors) "
  for n in "${NODES[@]}"; do
    [ -e "/run/netns/$n" ] || continue
    h=$(holder_pid "$n" || true)
    pids=()
    for p in $(ip netns pids "$n" 2>/dev/null); do
      [ "$p" = "$h" ] && continue
      [[ $keep == *" $p "* ]] && continue
      pids+=("$p")
      log "down: killing what is left in $n: $p $({ tr '\0' ' ' <"/proc/$p/cmdline"; } 2>/dev/null | cut -c1-120)"
    done
    if [ ${#pids[@]} -gt 0 ]; then
      kill -KILL "${pids[@]}" 2>/dev/null || true
      wait_dead 2 "${pids[@]}" || true
    fi
  done

  # Last resort for daemons whose pid file is gone: ours by name and by our
  #    state directory on their command line.
  pids=()
  for f in /proc/[0-9]*/cmdline; do
    p=${f#/proc/}; p=${p%/cmdline}
    [[ $keep == *" $p "* ]] && continue
    # The process may exit between the glob and the read: skip it quietly.
    cmd=$({ tr '\0' ' ' <"$f"; } 2>/dev/null) || continue
    case $cmd in
      slurmd\ * | slurmctld\ * | munged\ * | slurmstepd*) [[ $cmd == *"$LC/"* ]] && pids+=("$p") ;;
    esac
  done
  stop_pids "${pids[@]}"

  # 3. Holders, then namespaces and bridges.
  pids=()
  for n in "${NODES[@]}"; do
    if h=$(holder_pid "$n"); then pids+=("$h"); fi
    rm -f "$(node_dir "$n")/holder.pid"
  done
  if [ ${#pids[@]} -gt 0 ]; then
    kill -KILL "${pids[@]}" 2>/dev/null || true
    wait_dead 2 "${pids[@]}" || true
  fi
  net_down

  # Mounts only ever exist in the nodes' private mount namespaces; refuse to
  # delete anything if one is visible here after all.
  if grep -qF " $LC/" /proc/self/mountinfo; then
    die "mounts below $LC are still present; not deleting state"
  fi
  if [ -e "$MARKER" ]; then
    rm -rf "$LC/head/state" "$LC"/nodes/*/spool "$LC"/nodes/*/tmp "$LC/faults"
    rm -f "$LC"/nodes/*/munge/munge.socket.2* "$HEAD_MUNGE"/munge.socket.2*
    if [ "${PURGE:-0}" = 1 ]; then rm -rf "$LC"; fi
  fi
  [ "${1:-}" = quiet ] || log "down"
}

cmd_down() {
  need_root
  teardown
}

cmd_status() {
  local n d rc=0 p
  say() { printf '  %-10s %-9s %s\n' "$1" "$2" "$3"; }
  # liveness NAME PIDFILE
  liveness() {
    if p=$(pid_of "$2"); then say "$1" "$p" alive; else say "$1" - dead; rc=1; fi
  }
  echo "cluster: LC=$LC"
  if pid_of "$LC/head/slurmctld.pid" >/dev/null; then
    timeout 5 sinfo -N -o '%N %P %t %G %E' || { echo "cluster: sinfo failed"; rc=1; }
  else
    echo "cluster: slurmctld is not running"
  fi
  echo "cluster: daemons"
  liveness slurmctld "$LC/head/slurmctld.pid"
  liveness munged "$HEAD_MUNGE/munged.pid"
  for n in "${NODES[@]}"; do
    d=$(node_dir "$n")
    if p=$(holder_pid "$n"); then say "$n" "$p" "holder alive"; else say "$n" - "holder dead"; rc=1; fi
    liveness "  munged" "$d/munge/munged.pid"
    liveness "  slurmd" "$d/slurmd.pid"
  done
  [ -s "$LC/faults" ] && echo "cluster: faults in effect: $(tr '\n' ';' <"$LC/faults")"
  return $rc
}

cmd_on() {
  [ $# -ge 2 ] || usage
  valid_node "$1"
  on_node "$@"
}

cmd_env() {
  printf '# Local test cluster (ci/cluster). Use: eval "$(ci/cluster env)"\n'
  printf 'export LC=%q\n' "$LC"
  printf 'export SLURM_CONF=%q\n' "$SLURM_CONF"
  # gpuconform on the nodes: each node's own MUNGE key and dummy GPU devices sit at these
  # paths inside its mount namespace (%n is the node name).
  printf 'export GPUCONFORM_MUNGE_KEY=%q\n' "$LC/run/munge/munge.key"
  printf 'export GPUCONFORM_DEV_DIR=%q\n' "$LC/nodes/%n/dev"
  # How many nodes are up (node1..nodeN), for callers that size their jobs to the cluster.
  printf 'export GPUCONFORM_LC_NODES=%q\n' "${#NODES[@]}"
  # The nodes' image: its patched torchrun (ci/image/torchrun) first on PATH, as a site's
  # module or profile.d would put it.
  printf 'export PATH=%q:"$PATH"\n' "$LC/shared/bin"
  cat <<'EOF'
# Open MPI, direct launch (srun --mpi=pmix) or salloc + mpirun:
# - btl self,tcp: ranks talk TCP only (the nodes share one machine, so shared
#   memory would be possible but unrealistic).
# - btl_tcp_if_include=ens1: keep MPI traffic on the fabric NIC. Unpinned, TCP
#   stripes over eth0 too and the 100mbit management link drags everything down.
# - oob_tcp_if_include: mpirun's control channel on the management subnet
#   (only used by mpirun, harmless for srun).
export OMPI_MCA_btl=self,tcp
export OMPI_MCA_btl_tcp_if_include=ens1
export OMPI_MCA_oob_tcp_if_include=10.10.0.0/24
EOF
  if [ "$(id -u)" -eq 0 ]; then
    printf '# Running as root: mpirun refuses to start without these.\n'
    printf 'export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1\n'
  fi
}

# HealthCheckProgram takes no arguments and slurmd gives it an almost empty environment
# (SLURMD_NODENAME only), so a wrapper says where everything is, as a site's would.
cmd_health_check() {
  local mode=${1:-} binary=${2:-} interval=${3:-5} wrapper=$LC/etc/slurm/gpuconform-health-check
  need_root
  load_settings
  pid_of "$LC/head/slurmctld.pid" >/dev/null || die "the cluster is not up"
  sed -i '/^HealthCheck/d' "$SLURM_CONF"
  case $mode in
    on)
      [ -x "$binary" ] || die "usage: ci/cluster health-check on BINARY [INTERVAL_S]"
      # A copy of its own: tests replace $LC/shared/bin/gpuconform while a check may run.
      install -m 0755 "$binary" "$LC/etc/slurm/gpuconform-hc-bin"
      render gpuconform-health-check.in SLURM_CONF="$SLURM_CONF" LC="$LC" >"$wrapper"
      chmod 0755 "$wrapper"
      {
        echo "HealthCheckProgram=$wrapper"
        echo "HealthCheckInterval=$interval"
        echo "HealthCheckNodeState=ANY"
      } >>"$SLURM_CONF"
      ;;
    off) ;;
    *) die "usage: ci/cluster health-check on BINARY [INTERVAL_S] | off" ;;
  esac
  scontrol reconfigure || die "scontrol reconfigure failed"
  log "health check $mode"
}

cmd_collect_logs() {
  local dir=${1:-} f rel
  [ -n "$dir" ] || die "usage: ci/cluster collect-logs DIR"
  mkdir -p "$dir"
  # An explicit list: key and seed files must never end up in CI artifacts.
  for f in "$LC"/etc/slurm/*.conf "$LC/etc/hosts" "$LC/etc/cluster.env" "$LC/etc/nodes.count" "$LC/faults" \
    "$LC/head/slurmctld.log" "$LC/head/slurmctld.stderr" \
    "$HEAD_MUNGE/munged.log" "$HEAD_MUNGE/munged.stderr" \
    "$LC"/nodes/node*/slurmd.log "$LC"/nodes/node*/slurmd.stderr "$LC"/nodes/node*/holder.log \
    "$LC"/nodes/node*/munge/munged.log "$LC"/nodes/node*/munge/munged.stderr; do
    [ -f "$f" ] || continue
    rel=${f#"$LC"/}
    mkdir -p "$dir/$(dirname "$rel")"
    cp "$f" "$dir/$rel"
  done
  log "logs and configs copied to $dir"
}
