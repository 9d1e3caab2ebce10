# Multi-architecture images of every variant (and the load image), with docker buildx bake.
# Run from the repository root (bake resolves "context" against the working directory):
#
#   docker buildx bake -f docker/docker-bake.hcl --print                  # what would be built
#   docker buildx bake -f docker/docker-bake.hcl --push                   # all, amd64 + arm64
#   REGISTRY=ghcr.io/you/testbed TAG=0.1 docker buildx bake -f docker/docker-bake.hcl --push
#   docker buildx bake -f docker/docker-bake.hcl vertx --set '*.platform=linux/arm64' --load
#
# Building both platforms on one machine needs QEMU binfmt for the other one
# (docker run --privileged --rm tonistiigi/binfmt --install arm64) or a native builder per platform
# (docker buildx create --append). Only the small final stage runs emulated: Maven runs on the
# build machine's platform (see docker/Dockerfile). A multi-platform result cannot be --load'ed into
# the classic image store: --push it, or build one platform with --load.
#
# Image names match docker/compose.yaml: ${REGISTRY}/<variant>:${TAG} (compose: TESTBED_IMAGE_PREFIX,
# TESTBED_TAG).

variable "REGISTRY" {
  default = "testbed"
}

variable "TAG" {
  default = "latest"
}

group "default" {
  targets = ["variants", "load"]
}

target "_common" {
  context    = "."
  dockerfile = "docker/Dockerfile"
  platforms  = ["linux/amd64", "linux/arm64"]
}

# One target per variant, named after it: "docker buildx bake -f docker/docker-bake.hcl vertx".
target "variants" {
  name = v
  matrix = {
    # The names of variants.conf, in its order: ComposeFileTest (testbed-contract) fails when they differ.
    v = [
      "spring-tomcat",
      "spring-tomcat-virtual",
      "servlet-tomcat-sync",
      "servlet-tomcat-async",
      "servlet-tomcat-virtual",
      "servlet-jetty-sync",
      "servlet-jetty-async",
      "servlet-jetty-virtual",
      "jetty-handler",
      "vertx",
      "spring-webflux",
      "helidon-se",
    ]
  }
  inherits = ["_common"]
  target   = "server"
  args     = { VARIANT = v }
  tags     = ["${REGISTRY}/${v}:${TAG}"]
}

target "load" {
  inherits = ["_common"]
  target   = "load"
  tags     = ["${REGISTRY}/load:${TAG}"]
}
