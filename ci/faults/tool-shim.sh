# Shared by the tool faults (ci/faults/tools/*); not a fault itself. shim_tool NODE TOOL BODY
# puts a script with BODY over TOOL's path in the node's mount namespace only.
tool_path() { command -v "$1" || die "no $1 on this machine"; }
shim_tool() {
  local node=$1 tool=$2 body=$3 path shim
  path=$(tool_path "$tool")
  shim="$LC/shims/$node-$tool"
  mkdir -p "$LC/shims"
  printf '#!/bin/sh\n%s\n' "$body" >"$shim"
  chmod 0755 "$shim"
  in_node "$node" mount --bind "$shim" "$path" || die "could not put the $tool shim on $node"
}
unshim_tool() { in_node "$1" umount "$(tool_path "$2")" 2>/dev/null || true; }
