# shellcheck shell=bash
# Sourced by ci/cluster: the cluster's files under $LC. Configuration rendered from the
# templates in ci/templates (render), gres.conf, the state directories and the dummy GPU
# devices.

# render TEMPLATE [NAME=VALUE...]: print ci/templates/TEMPLATE with every @NAME@ replaced by
# VALUE. A placeholder left without a value is an error, so a template and its caller cannot
# drift apart unnoticed.
render() {
  local tpl=$TEMPLATES_DIR/$1 pair val script="" known="" left
  shift
  [ -r "$tpl" ] || die "missing template $tpl"
  for pair in "$@"; do
    val=${pair#*=}
    [[ $val != *$'\n'* ]] || die "render $tpl: the value of ${pair%%=*} has a newline"
    val=$(printf '%s' "$val" | sed 's/[\\&|]/\\&/g')
    script+="s|@${pair%%=*}@|$val|g;"
    known+="s|@${pair%%=*}@||g;"
  done
  left=$(sed "$known" "$tpl" | { grep -o '@[A-Z_]*@' || true; } | sort -u | paste -sd' ' -)
  [ -z "$left" ] || die "render $tpl: no value for $left"
  sed "$script" "$tpl"
}

# gres_line NODE COUNT: one gres.conf line naming COUNT dummy devices.
gres_line() {
  local d files
  d=$(node_dir "$1")/dev
  if [ "$2" -eq 1 ]; then files=$d/nvidia0; else files="$d/nvidia[0-$(($2 - 1))]"; fi
  echo "NodeName=$1 Name=gpu${GPU_TYPE:+ Type=$GPU_TYPE} File=$files"
}

# write_gres_conf [NODE COUNT]: full gres.conf, optionally with one node's
# device list cut to COUNT (the gres-mismatch fault).
# shellcheck disable=SC2120 # the fault files pass NODE COUNT
write_gres_conf() {
  local n c
  {
    render gres.conf.in
    for n in "${NODES[@]}"; do
      c=$GPUS
      [ "$n" = "${1:-}" ] && c=$2
      gres_line "$n" "$c"
    done
  } >"$LC/etc/slurm/gres.conf.new"
  mv -f "$LC/etc/slurm/gres.conf.new" "$LC/etc/slurm/gres.conf"
}

write_configs() {
  local n i cpus mem gres
  # The nodes share this machine's CPUs and memory; slurmd marks a node
  # invalid if it has fewer CPUs or less memory than configured.
  cpus=$(nproc); [ "$cpus" -gt 2 ] && cpus=2
  mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 - 64 }' /proc/meminfo)
  [ "$mem" -gt 2000 ] && mem=2000
  gres=gpu:${GPU_TYPE:+$GPU_TYPE:}$GPUS

  render cluster.env.in GPUS="$GPUS" GPU_TYPE="$GPU_TYPE" MGMT_RATE="$MGMT_RATE" >"$LC/etc/cluster.env"
  render slurm.conf.in LC="$LC" HEAD_MUNGE="$HEAD_MUNGE" CPUS="$cpus" MEM="$mem" GRES="$gres" >"$SLURM_CONF"
  for n in "${NODES[@]}"; do
    i=$(node_idx "$n")
    echo "NodeName=$n NodeAddr=10.10.0.$i NodeHostname=$n" >>"$SLURM_CONF"
  done
  echo "PartitionName=gpu Nodes=ALL Default=YES MaxTime=INFINITE State=UP" >>"$SLURM_CONF"

  # slurmd 22.05 always initialises a cgroup plugin; cgroup/v1 without
  # automount is the one that starts with an empty /sys/fs/cgroup.
  render cgroup.conf.in >"$LC/etc/slurm/cgroup.conf"
  write_gres_conf

  # Cluster names, bind-mounted over /etc/hosts in the node and controller
  # mount namespaces only (the host's /etc/hosts is not touched).
  {
    cat /etc/hosts
    echo "# ci/cluster"
    echo "10.10.0.254 head"
    for n in "${NODES[@]}"; do echo "10.10.0.$(node_idx "$n") $n"; done
    for n in "${NODES[@]}"; do echo "10.20.0.$(node_idx "$n") $n-fab"; done
  } >"$LC/etc/hosts"
}

make_dirs() {
  local n d i
  mkdir -p "$LC/etc/slurm" "$LC/head/state" "$LC/shared" "$HEAD_MUNGE"
  chmod 0755 "$LC" "$LC/run" "$HEAD_MUNGE" "$LC/shared"
  : >"$MARKER"
  for n in "${NODES[@]}"; do
    d=$(node_dir "$n")
    mkdir -p "$d/spool" "$d/tmp" "$d/munge" "$d/dev"
    chmod 1777 "$d/tmp"
    # munged refuses sockets in dirs that others cannot traverse (non-root srun).
    chmod 0755 "$d/munge"
  done
  make_gpu_devices
  # The image's launcher: Debian's torchrun with the fix a site would patch into its image
  # (ci/image/torchrun says why). `ci/cluster env` puts $LC/shared/bin first on PATH.
  mkdir -p "$LC/shared/bin"
  install -m 0755 "$SCRIPT_DIR/image/torchrun" "$LC/shared/bin/torchrun"
}

# The dummy GPUs: character devices with the NVIDIA major, one per GPU (gpu-device-gone
# removes one; heal puts it back).
make_gpu_devices() {
  local n d i
  for n in "${NODES[@]}"; do
    d=$(node_dir "$n")
    for ((i = 0; i < GPUS; i++)); do
      [ -c "$d/dev/nvidia$i" ] || mknod -m 0666 "$d/dev/nvidia$i" c 195 "$i"
    done
  done
}
