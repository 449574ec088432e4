# shellcheck shell=bash
# Sourced by ci/cluster: the nodes' namespaces. The bridges, veth pairs and network namespaces
# (net_up, net_down), the holder process that keeps each node's namespaces alive, and entering
# a node (on_node, in_node).

# holder PID of a node: the process whose namespaces make up the node.
holder_pid() {
  local f p
  f=$(node_dir "$1")/holder.pid
  [ -r "$f" ] || return 1
  p=$(tr -dc 0-9 <"$f")
  alive "$p" || return 1
  [ "$(ip netns identify "$p" 2>/dev/null)" = "$1" ] || return 1
  echo "$p"
}

# on_node NODE CMD...: run CMD in the node's network, mount and UTS namespaces.
# Plain `ip netns exec` would give the network but not the node's /tmp,
# hostname, /etc/hosts or munge socket. The working directory is kept when it
# exists inside the node, else /.
on_node() {
  local node=$1 h; shift
  h=$(holder_pid "$node") || die "$node is not up (no holder process)"
  exec nsenter -t "$h" -n -m -u -- /bin/sh -c 'cd "$1" 2>/dev/null || cd /; shift; exec "$@"' sh "$PWD" "$@"
}
# Like on_node, but returns instead of replacing the current shell.
in_node() { (on_node "$@"); }

start_holder() { # NODE
  local d
  d=$(node_dir "$1")
  rm -f "$d/holder.pid"
  setsid ip netns exec "$1" unshare --uts --mount --propagation private -- \
    "$NODE_INIT" "$1" "$LC" </dev/null >"$d/holder.log" 2>&1 &
}

wait_holder() { # NODE
  local dl
  dl=$(deadline_in 5)
  until holder_pid "$1" >/dev/null; do
    past "$dl" && { log "$1: namespace holder did not start"; return 1; }
    sleep 0.02
  done
}

net_up() {
  local n i
  ip link add br-lcm type bridge
  ip addr add 10.10.0.254/24 dev br-lcm
  ip link set br-lcm up
  ip link add br-lcf type bridge
  ip addr add 10.20.0.254/24 dev br-lcf
  ip link set br-lcf up
  for n in "${NODES[@]}"; do
    i=$(node_idx "$n")
    ip netns add "$n"
    ip -n "$n" link set lo up
    # Create the peers directly inside the netns under temporary names, then
    # rename: eth0 may already exist in the root namespace.
    ip link add "lcm$i" type veth peer name "tmpm$i" netns "$n"
    ip link add "lcf$i" type veth peer name "tmpf$i" netns "$n"
    ip -n "$n" link set "tmpm$i" name eth0
    ip -n "$n" link set "tmpf$i" name ens1
    ip link set "lcm$i" master br-lcm up
    ip link set "lcf$i" master br-lcf up
    ip -n "$n" addr add "10.10.0.$i/24" dev eth0
    ip -n "$n" addr add "10.20.0.$i/24" dev ens1
    ip -n "$n" link set eth0 up
    ip -n "$n" link set ens1 up
    tc -n "$n" qdisc add dev eth0 root tbf rate "$MGMT_RATE" burst 256kb latency 50ms
  done
}

net_down() {
  local n i
  for n in "${NODES[@]}"; do
    i=$(node_idx "$n")
    [ -e "/run/netns/$n" ] && { ip netns del "$n" 2>/dev/null || true; }
    # The veth peers normally die with the namespace, but the kernel removes them
    # asynchronously: one seen by `ip link show` may be gone by the `del` (a clean-clone CI
    # run ended here). Delete stragglers, and let one that vanished meanwhile go.
    ip link show "lcm$i" >/dev/null 2>&1 && { ip link del "lcm$i" 2>/dev/null || true; }
    ip link show "lcf$i" >/dev/null 2>&1 && { ip link del "lcf$i" 2>/dev/null || true; }
  done
  for n in br-lcm br-lcf; do
    ip link show "$n" >/dev/null 2>&1 && { ip link del "$n" 2>/dev/null || true; }
  done
  # `ip netns add` turns /run/netns into a shared bind mount of itself and
  # leaves it there. Undo that only if we caused it and no netns is left.
  if [ -e "$LC/run/netns-mount.ours" ]; then
    if [ -z "$(ls -A /run/netns 2>/dev/null)" ]; then
      mountpoint -q /run/netns && umount /run/netns 2>/dev/null
      [ -e "$LC/run/netns-dir.ours" ] && rmdir /run/netns 2>/dev/null
    fi
    rm -f "$LC/run/netns-mount.ours" "$LC/run/netns-dir.ours"
  fi
  return 0
}

# Remember whether /run/netns existed and was a mount point before us.
note_netns_dir() {
  mountpoint -q /run/netns 2>/dev/null && return 0
  [ -d /run/netns ] || : >"$LC/run/netns-dir.ours"
  : >"$LC/run/netns-mount.ours"
}
