# test_examples_gpu.sh: the GPU part of test_examples.sh (the CUDA and Python examples of
# examples/), labelled gpu by its name; skipped (exit 77) without a GPU.
PL_EXAMPLES_PART=gpu exec bash "$(dirname "$0")/test_examples.sh"
