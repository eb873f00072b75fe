# The tamerlane binary in a minimal image, for the sharded self-play of
# the README ("Sharding across machines"):
#
#   docker build -t tamerlane:local .
#   docker run --rm -v "$PWD/runs:/runs" tamerlane:local selfplay -o /runs/sp --variant chess --pairs 4
#
# Stage 1 builds a static binary (CGO_ENABLED=0: no libc needed at run
# time); the evaluation tables, published values, hand tables and
# configs are embedded in it (go:embed), so the image holds nothing else.
# Stage 2 is distroless/static: CA certificates, /etc/passwd with a
# nonroot user (uid 65532), /tmp, and no shell.

ARG GO_VERSION=1.26

FROM golang:${GO_VERSION} AS build
WORKDIR /src
# Modules first, so that a source change does not download them again.
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 GOOS=linux go build -trimpath -ldflags="-s -w" -o /out/tamerlane ./cmd/tamerlane

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/tamerlane /usr/local/bin/tamerlane
USER 65532:65532
WORKDIR /runs
ENTRYPOINT ["/usr/local/bin/tamerlane"]
CMD ["help"]
