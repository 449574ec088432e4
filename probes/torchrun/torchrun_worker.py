# gpuconform's torchrun worker: the smoke test an operator runs first on a new cluster, on the
# launch path training jobs use (srun torchrun ... worker.py), with one record file per rank.
#
# torchrun starts one copy per GPU (or per slot on a CPU profile). Each copy reads what
# torchrun set (LOCAL_RANK, RANK, WORLD_SIZE, GROUP_RANK, MASTER_ADDR/PORT), joins the process
# group with the backend gpuconform asks for, and writes record lines (gpuconform's snapshot
# format: `kind key=value key="quoted value"`) to $GPUCONFORM_TORCHRUN_OUT/rank-<RANK>.txt:
#   worker      who this rank is, as torchrun and Slurm see it, and its device
#   init        init_process_group: ok, milliseconds, the error
#   allreduce   one sum allreduce per size: the exact expected value, what came back, busbw
#   transport   on NCCL: the paths its channels took, from NCCL's own debug file
#   shard       DistributedSampler's indices for this rank, epochs 0 and 1
#   dataload    DataLoader read throughput from the shared data directory, num_workers 0 and 4
#   checkpoint  rank 0 writes through a .tmp file and a rename; every rank loads the step back
#   error       a stage that raised: the stage and the exception's last line
#   done        the worker reached its end
# gpuconform judges the records (suites/torchrun); this program only measures and reports.
# Every stage is guarded, so one failing stage is reported and the next still runs, and
# every collective has the run's deadline, so no rank waits forever.
import datetime
import os
import platform
import socket
import sys
import time
import traceback

OUT_DIR = os.environ.get("GPUCONFORM_TORCHRUN_OUT", ".")
RANK = int(os.environ.get("RANK", "-1"))
RECORD_PATH = os.path.join(OUT_DIR, "rank-%d.txt" % RANK)


def clean(value):
    text = str(value).replace('"', "'")
    return "".join(c if c >= " " and c != "\x7f" else " " for c in text)


def record(kind, **fields):
    parts = [kind]
    for key, value in fields.items():
        text = clean(value)
        if text == "" or any(c in text for c in " '=\\") or not text.isprintable():
            parts.append('%s="%s"' % (key, text))
        else:
            parts.append("%s=%s" % (key, text))
    with open(RECORD_PATH, "a") as out:
        out.write(" ".join(parts) + "\n")


def last_line(exc):
    lines = [l for l in traceback.format_exception_only(type(exc), exc) if l.strip()]
    return lines[-1].strip() if lines else type(exc).__name__


def env_int(name, default):
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def stage(name, body):
    try:
        return body()
    except Exception as exc:  # a failed stage is reported; the next stage still runs
        record("error", stage=name, message=last_line(exc))
        return None


def main():
    started = time.monotonic()
    record("start", python=platform.python_version(), pid=os.getpid())
    import torch
    import torch.distributed as dist

    local_rank = env_int("LOCAL_RANK", -1)
    world_size = env_int("WORLD_SIZE", -1)
    backend = os.environ.get("GPUCONFORM_TORCHRUN_BACKEND", "gloo")
    timeout_s = env_int("GPUCONFORM_TORCHRUN_TIMEOUT_S", 60)
    device = torch.device("cpu")
    uuid = ""
    if backend == "nccl":
        torch.cuda.set_device(local_rank)
        device = torch.device("cuda", local_rank)
        props = torch.cuda.get_device_properties(local_rank)
        uuid = str(getattr(props, "uuid", "")) or ""
        if uuid and not uuid.startswith("GPU-"):
            uuid = "GPU-" + uuid
    record(
        "worker",
        rank=RANK,
        local_rank=local_rank,
        world_size=world_size,
        local_world_size=os.environ.get("LOCAL_WORLD_SIZE", ""),
        group_rank=os.environ.get("GROUP_RANK", ""),
        host=socket.gethostname(),
        master_addr=os.environ.get("MASTER_ADDR", ""),
        master_port=os.environ.get("MASTER_PORT", ""),
        slurm_nodeid=os.environ.get("SLURM_NODEID", ""),
        slurm_procid=os.environ.get("SLURM_PROCID", ""),
        cuda_visible_devices=os.environ.get("CUDA_VISIBLE_DEVICES", ""),
        torch=torch.__version__,
        python=platform.python_version(),
        backend=backend,
        device=str(device),
        device_uuid=uuid,
    )

    init_started = time.monotonic()
    try:
        dist.init_process_group(backend, timeout=datetime.timedelta(seconds=timeout_s))
    except Exception as exc:
        record("init", ok=0, ms="%.0f" % ((time.monotonic() - init_started) * 1000), error=last_line(exc))
        return 1
    record("init", ok=1, ms="%.0f" % ((time.monotonic() - init_started) * 1000))

    sizes = [int(s) for s in os.environ.get("GPUCONFORM_TORCHRUN_SIZES", "1048576").split(",") if s]

    def allreduce(size_bytes):
        count = max(1, size_bytes // 4)
        # Rank r contributes r + 1 in every element: the sum is W(W+1)/2 exactly in float32
        # for any world a cluster has, so a wrong element is a wrong collective.
        tensor = torch.full((count,), float(RANK + 1), dtype=torch.float32, device=device)
        dist.all_reduce(tensor)  # warm-up, and the value checked
        expected = world_size * (world_size + 1) / 2.0
        wrong = int((tensor != expected).sum().item())
        got = tensor[0].item()
        iterations = 5
        if device.type == "cuda":
            torch.cuda.synchronize()
        dist.barrier()
        begin = time.monotonic()
        for _ in range(iterations):
            dist.all_reduce(tensor)
        if device.type == "cuda":
            torch.cuda.synchronize()
        seconds = (time.monotonic() - begin) / iterations
        busbw = size_bytes / seconds * 2 * (world_size - 1) / world_size / 1e9 if world_size > 1 else 0.0
        record("allreduce", size_bytes=size_bytes, expected="%.1f" % expected, got="%.1f" % got,
               wrong_elements=wrong, seconds="%.6f" % seconds, busbw_gb_per_s="%.4f" % busbw)

    for size_bytes in sizes:
        stage("allreduce", lambda: allreduce(size_bytes))
    if backend == "nccl":
        stage("transport", transport_lines)

    def shards():
        from torch.utils.data.distributed import DistributedSampler
        dataset = list(range(env_int("GPUCONFORM_TORCHRUN_DATASET_ITEMS", 240)))
        sampler = DistributedSampler(dataset, num_replicas=world_size, rank=RANK, shuffle=True, seed=7)
        for epoch in (0, 1):
            sampler.set_epoch(epoch)
            record("shard", epoch=epoch, items=len(dataset), indices=",".join(str(i) for i in sampler))

    stage("shard", shards)

    data_dir = os.environ.get("GPUCONFORM_TORCHRUN_DATA_DIR", "")
    if data_dir:
        stage("dataload", lambda: dataload(torch, dist, data_dir, world_size))
        stage("checkpoint", lambda: checkpoint(torch, dist, data_dir))
    stage("barrier", lambda: dist.barrier())
    stage("destroy", dist.destroy_process_group)
    record("done", ms="%.0f" % ((time.monotonic() - started) * 1000))
    return 0


def transport_lines():
    # The paths NCCL chose for this rank's channels ("via P2P/IPC", "via NET/IB/0"), from its
    # own debug file (gpuconform sets NCCL_DEBUG_FILE=<dir>/nccl.%h.%p.log): the evidence a
    # backend far below the run's own NCCL sweep is reported with.
    import glob
    seen = []
    for path in glob.glob(os.path.join(OUT_DIR, "nccl.*.%d.log" % os.getpid())):
        with open(path, errors="replace") as f:
            for line in f:
                if " via " in line:
                    kind = line.split(" via ", 1)[1].strip()
                    if kind not in [k for k, _ in seen]:
                        seen.append((kind, line.strip()))
    for _, line in seen[:8]:
        record("transport", line=line[-300:])


FILE_BYTES = 1 << 20


class Files:
    """A map-style dataset of whole files: what a training job's loader reads from shared storage."""

    def __init__(self, paths):
        self.paths = paths

    def __len__(self):
        return len(self.paths)

    def __getitem__(self, index):
        path = self.paths[index]
        with open(path, "rb") as f:
            data = f.read()
        return len(data)


def drop_cache(path):
    # The measurement is of the storage, not of this node's page cache.
    try:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
    except OSError:
        pass


def dataload(torch, dist, data_dir, world_size):
    from torch.utils.data import DataLoader
    from torch.utils.data.distributed import DistributedSampler
    files_per_rank = env_int("GPUCONFORM_TORCHRUN_FILES_PER_RANK", 8)
    count = files_per_rank * world_size
    sets = {}
    for workers in (0, 4):
        sets[workers] = [os.path.join(data_dir, "data-w%d-%05d.bin" % (workers, i)) for i in range(count)]
    if RANK == 0:
        block = os.urandom(FILE_BYTES)
        for paths in sets.values():
            for path in paths:
                with open(path + ".tmp", "wb") as f:
                    f.write(block)
                os.replace(path + ".tmp", path)
    dist.barrier()
    for workers, paths in sets.items():
        sampler = DistributedSampler(Files(paths), num_replicas=world_size, rank=RANK, shuffle=False)
        mine = [paths[i] for i in sampler]
        for path in mine:
            drop_cache(path)
        loader = DataLoader(Files(paths), batch_size=1, sampler=sampler, num_workers=workers)
        # Timed from the first batch on: the steady state a training loop sees, not the
        # start of the loader's worker processes.
        begin = None
        total = 0
        for batch in loader:
            if begin is None:
                begin = time.monotonic()
                continue
            total += int(batch.sum().item())
        seconds = max(time.monotonic() - begin, 1e-6) if begin is not None else 1e-6
        record("dataload", num_workers=workers, files=len(mine), bytes=total, seconds="%.4f" % seconds,
               mb_per_s="%.1f" % (total / seconds / 1e6))
        dist.barrier()


def checkpoint(torch, dist, data_dir):
    # Rank 0 alone writes, through a .tmp file and an atomic rename; every rank then loads the
    # same step. GPUCONFORM_TORCHRUN_CHECKPOINT_WRITERS=all makes every rank write the final
    # path in place at once: the unguarded pattern, the checks' negative control.
    path = os.path.join(data_dir, "checkpoint.pt")
    step = 1000 + env_int("GPUCONFORM_TORCHRUN_STEP", 7)
    every_rank = os.environ.get("GPUCONFORM_TORCHRUN_CHECKPOINT_WRITERS", "rank0") == "all"
    state = {"step": step, "weights": torch.arange(1 << 18, dtype=torch.float32) * (RANK + 1 if every_rank else 1)}
    wrote = 0
    if every_rank:
        torch.save(state, path)
        wrote = 1
    elif RANK == 0:
        torch.save(state, path + ".tmp")
        os.replace(path + ".tmp", path)
        wrote = 1
    dist.barrier()
    try:
        loaded = torch.load(path)
        expected = torch.arange(1 << 18, dtype=torch.float32)
        ok = int(loaded["step"]) == step and bool(torch.equal(loaded["weights"], expected))
        record("checkpoint", wrote=wrote, step=step, loaded_step=int(loaded["step"]), consistent=int(ok),
               mode="all-ranks" if every_rank else "rank0-rename")
    except Exception as exc:
        record("checkpoint", wrote=wrote, step=step, loaded_step="", consistent=0,
               mode="all-ranks" if every_rank else "rank0-rename", error=last_line(exc))
    dist.barrier()


if __name__ == "__main__":
    try:
        status = main()
    except Exception as exc:
        record("error", stage="worker", message=last_line(exc))
        status = 1
    sys.exit(status)
