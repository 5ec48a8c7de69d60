# Dockerfile - the image the farm examples run (farm/k8s-indexed-job.yaml, farm/README.md):
# Debian 12 with the packages of tools/packages.txt, installed by tools/deps.sh exactly as
# `make deps` installs them (one list; tests/cli/packages.sh checks it), and mmdrender built
# and installed by `make install` (binary, man page, completion). No GPU is needed (llvmpipe).
#
#   docker build -t registry.example.com/mmdrender:0.1.0 .
#   docker run --rm -v "$PWD:/work" registry.example.com/mmdrender:0.1.0 scene.ini -o out/frames/
FROM debian:12
COPY tools/deps.sh tools/packages.txt /src/tools/
RUN bash /src/tools/deps.sh && rm -rf /var/lib/apt/lists/*
COPY . /src
RUN make -C /src -j"$(nproc)" install PREFIX=/usr/local && rm -rf /src/build
WORKDIR /work
ENTRYPOINT ["mmdrender"]
