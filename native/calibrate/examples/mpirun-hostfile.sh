#!/bin/bash
# tslab-calibrate on the two nodes of ./hostfile with Open MPI: 8 ranks per node, one per GPU.
# Every node must see the same binary and --scenario file (the ranks compare a hash of the
# scenario's content and of the sizes before measuring, and stop if they differ).
set -euo pipefail
CAL=${CAL:-$PWD/build/native/calibrate/tslab-calibrate}
HERE=$(cd "$(dirname "$0")" && pwd)
# -x forwards NCCL_* to the remote ranks; --map-by ppr:8:node places 8 ranks per node in order,
# so local rank i drives GPU i. Add --allow-run-as-root in containers that run as root.
mpirun -np 16 --hostfile "$HERE/hostfile" --map-by ppr:8:node --bind-to numa \
    -x NCCL_DEBUG=WARN -x PATH -x LD_LIBRARY_PATH \
    "$CAL" --backend cuda -b 8 -e 1G -f 2 -n 20 -w 5 -T 300 --timeout 3000 --out profile.json
