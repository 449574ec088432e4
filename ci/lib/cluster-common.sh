# shellcheck shell=bash
# Sourced by ci/cluster: messages (log, die), the checks every command starts with, wall-clock
# deadlines, node names and the node count, and the PID helpers that guard every kill (alive,
# ours, pid_of, stop_pids). Uses NODES, LC and HEAD_MUNGE from ci/cluster.

log() { echo "cluster: $*" >&2; }
die() { echo "cluster: error: $*" >&2; exit 1; }

# Refuse state directories whose removal would hurt (down deletes parts of it).
check_lc() {
  case $LC in
    / | /tmp | /var | /var/tmp | /home | /root | /usr | /etc | /dev | /dev/shm | /run | /proc | /sys)
      die "LC=$LC is not a usable state directory" ;;
  esac
  case $LC/ in /dev/shm/*) die "LC must not be under /dev/shm (nodes get a private /dev/shm)" ;; esac
}

need_root() { [ "$(id -u)" -eq 0 ] || die "must run as root (network namespaces, mknod, daemons)"; }

need_tools() {
  local t missing=()
  for t in ip tc nsenter unshare setsid mknod munged munge unmunge slurmctld slurmd sinfo scontrol srun; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
  done
  [ ${#missing[@]} -eq 0 ] || die "missing tools: ${missing[*]} (run ci/install-deps)"
}

now() { date +%s.%N; }
# past DEADLINE: true once the wall clock passed DEADLINE (seconds since epoch).
past() { awk -v d="$1" -v n="$(now)" 'BEGIN { exit !(n > d) }'; }
deadline_in() { awk -v s="$1" -v n="$(now)" 'BEGIN { printf "%.3f", n + s }'; }

# The node count. `up --nodes N` (or NODES=N) chooses it and records it in $LC/etc/nodes.count,
# so that every later command (down, heal, fault, ...) acts on the nodes that are up without
# being told again. At least 2: the cluster is there to test what crosses nodes, and the pair
# faults need two. At most MAX_NODE_COUNT: the addresses would allow 253, but every node runs a
# munged and a slurmd on the same few cores, and bring-up grows with the count.
DEFAULT_NODE_COUNT=3
MAX_NODE_COUNT=32

valid_node_count() { [[ $1 =~ ^[1-9][0-9]*$ ]] && [ "$1" -ge 2 ] && [ "$1" -le "$MAX_NODE_COUNT" ]; }

# The count `up` recorded, or the default when there is none (nothing was ever up here).
recorded_node_count() {
  local c=""
  [ -r "$LC/etc/nodes.count" ] && c=$(tr -dc 0-9 <"$LC/etc/nodes.count")
  if valid_node_count "$c"; then echo "$c"; else echo "$DEFAULT_NODE_COUNT"; fi
}

node_names() { # COUNT: node1 .. nodeCOUNT, one a line
  local i
  for ((i = 1; i <= $1; i++)); do echo "node$i"; done
}

set_nodes() { mapfile -t NODES < <(node_names "$1"); } # COUNT

# valid_node NODE [COUNT]: NODE is one of the cluster's nodes (of COUNT nodes, default the
# nodes that are up).
valid_node() {
  local names
  names=$(node_names "${2:-${#NODES[@]}}" | paste -sd' ' -)
  [[ $1 =~ ^node[1-9][0-9]*$ && " $names " == *" $1 "* ]] || die "unknown node '$1' (expected one of $names)"
}

node_dir() { echo "$LC/nodes/$1"; }
node_idx() { echo "${1#node}"; }

# A process counts as alive unless it is gone or a zombie: PID 1 of some CI
# machines reaps orphans lazily, and kill -0 succeeds on a zombie.
alive() {
  local s
  [ -n "${1:-}" ] || return 1
  s=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  s=${s##*) }
  [ "${s%% *}" != Z ]
}

# ours PID: alive, and its command line names our state directory. Guards every
# kill against a stale pid file whose PID was reused by an unrelated process.
ours() {
  local cmd
  alive "$1" || return 1
  cmd=$({ tr '\0' ' ' <"/proc/$1/cmdline"; } 2>/dev/null) || return 1
  [[ $cmd == *"$LC/"* ]]
}

# pid_of FILE: print the PID in FILE if that daemon is alive and ours.
pid_of() {
  local p
  [ -r "$1" ] || return 1
  p=$(tr -dc 0-9 <"$1")
  ours "$p" && echo "$p"
}

# Daemons fork into the background, so their pid file appears a moment after
# the launching command returned: poll for it instead of trusting the exit.
wait_pidfile() { # FILE SECONDS
  local dl
  dl=$(deadline_in "$2")
  until pid_of "$1" >/dev/null; do
    past "$dl" && return 1
    sleep 0.05
  done
}

# wait_dead SECONDS PID...: wait until every PID is gone (or a zombie).
wait_dead() {
  local dl p left
  dl=$(deadline_in "$1"); shift
  while :; do
    left=0
    for p in "$@"; do alive "$p" && left=1; done
    [ $left -eq 0 ] && return 0
    past "$dl" && return 1
    sleep 0.05
  done
}

# stop_pids PID...: SIGTERM, wait briefly, then SIGKILL what is left.
stop_pids() {
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  wait_dead 3 "$@" && return 0
  kill -KILL "$@" 2>/dev/null || true
  wait_dead 2 "$@" || true
}

# stop_pidfiles FILE...: stop the daemons named by pid files, if they are ours.
stop_pidfiles() {
  local f p pids=()
  for f in "$@"; do
    if p=$(pid_of "$f"); then pids+=("$p"); fi
  done
  stop_pids "${pids[@]}"
  rm -f "$@"
}

# ancestors: this script's PID and those of every process above it.
ancestors() {
  local p=$$ out=""
  while [ -n "$p" ] && [ "$p" -gt 1 ] 2>/dev/null; do
    out="$out $p"
    p=$(awk '/^PPid:/ {print $2}' "/proc/$p/status" 2>/dev/null)
  done
  echo "$out"
}

# load_settings: GPUS, GPU_TYPE and MGMT_RATE as `up` recorded them.
load_settings() {
  [ -r "$LC/etc/cluster.env" ] || die "no cluster in $LC (run ci/cluster up)"
  # shellcheck source=/dev/null
  . "$LC/etc/cluster.env"
}

wait_log() { # FILE ERE SECONDS
  local dl
  dl=$(deadline_in "$3")
  until grep -Eq "$2" "$1" 2>/dev/null; do
    past "$dl" && return 1
    sleep 0.1
  done
}

# show_logs: the last lines of every daemon's log, on stderr (when a start or a wait failed).
show_logs() {
  local f
  # Least telling first, so the daemons' own errors end up at the bottom.
  for f in "$HEAD_MUNGE"/munged.{log,stderr} "$LC"/nodes/node*/munge/munged.{log,stderr} \
    "$LC"/nodes/node*/holder.log "$LC/head/slurmctld.log" "$LC"/nodes/node*/slurmd.log \
    "$LC/head/slurmctld.stderr" "$LC"/nodes/node*/slurmd.stderr; do
    [ -s "$f" ] || continue
    echo "----- ${f#"$LC"/} (last 15 lines)" >&2
    tail -n 15 "$f" >&2
  done
}
