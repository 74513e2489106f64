# test_entropy_skimage.sh: parlab entropy --base 2 -k 5 against scikit-image's
# skimage.filters.rank.entropy(img, np.ones((5, 5))) on interior pixels, to 1e-5
# (tests/test_entropy_skimage.py says which pixels and why the definitions agree there).
# Needs Debian's python3-skimage for /usr/bin/python3; without it the test is skipped (77).
# Run with PARLAB (the parlab executable) and PL_TESTDIR set.
. "$(dirname "$0")/cli_lib.sh"
here=$(cd "$(dirname "$0")" && pwd)
if ! /usr/bin/python3 -c 'import skimage.filters.rank, numpy' >/dev/null 2>&1; then
    echo "skipped: python3-skimage not installed"
    exit 77
fi
cli_setup entropy_skimage
if /usr/bin/python3 "$here/test_entropy_skimage.py" "$PARLAB" "$dir"; then ok; else bad "parlab and scikit-image differ"; fi
summary test_entropy_skimage
