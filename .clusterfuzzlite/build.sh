#!/bin/bash -eu
# ClusterFuzzLite builds exactly what OSS-Fuzz builds.
exec "$SRC/sinkcheck/fuzz/oss-fuzz/build.sh"
