# test_entropy_skimage.sh: parlab entropy --base 2 -k 5 against scikit-image's
# skimage.filters.rank.entropy(img, np.ones((5, 5))) on interior pixels, to 1e-5
# (tests/test_entropy_skimage.py says which pixels and why the definitions agree there).
# scikit-image comes from make test's venv (cli_lib.sh's test_python); without it the test is
# skipped (77), saying so. Run with PARLAB (the parlab executable) and PL_TESTDIR set.
. "$(dirname "$0")/cli_lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
py=$(test_python skimage.filters.rank numpy) ||
    skip_test "the comparison with scikit-image: no interpreter with scikit-image" "the venv make test sets up (python3-venv)"
cli_setup entropy_skimage
if "$py" "$here/test_entropy_skimage.py" "$PARLAB" "$dir"; then ok; else bad "parlab and scikit-image differ"; fi
summary test_entropy_skimage
