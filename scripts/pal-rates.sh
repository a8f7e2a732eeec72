#!/usr/bin/env bash
# docs/rule-packs.md's tables of PAL import rates, measured again: each PAL file imported with the files it
# inherits (crate/examples/pal_rates.rs), one line per row, "-" where a file of the row is not in the folder.
# The repository keeps nine of PAL's files (tests/vectors/pal); the others are read from PAL's public
# repository (PAL2/PALWizard/) into a folder of one's own, beside copies of those nine.
#   bash scripts/pal-rates.sh [folder, default tests/vectors/pal]     (add --why for the reasons of each row)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=tests/vectors/pal
why=0
for a in "$@"; do
  case "$a" in
    --why) why=1 ;;
    *) dir=$a ;;
  esac
done
cargo build -q -p counterlens --example pal_rates
bin=$PWD/target/debug/examples/pal_rates

# The rows, as the tables list them: the file first, then what it inherits.
rows=(
  "QuickSystemOverview.xml"
  "SystemOverview.xml QuickSystemOverview.xml"
  "DotNet.xml"
  "AspDotNet.xml"
  "IIS.xml AspDotNet.xml SystemOverview.xml QuickSystemOverview.xml"
  "IIS.xml AspDotNet.xml Asp.xml SystemOverview.xml QuickSystemOverview.xml"
  "HyperV.xml SystemOverview.xml QuickSystemOverview.xml"
  "ActiveDirectory.xml SystemOverview.xml QuickSystemOverview.xml"
  "Exchange2013.xml SystemOverview.xml QuickSystemOverview.xml"
  "SQLServer.xml SystemOverview.xml QuickSystemOverview.xml"
  "SQLServer2008R2.xml SystemOverview.xml QuickSystemOverview.xml"
  "SQLServer2012.xml SystemOverview.xml QuickSystemOverview.xml"
  "SQLServer2014.xml SystemOverview.xml QuickSystemOverview.xml"
  "Exchange2010.xml QuickSystemOverview.xml"
  "Lync2013-FrontEnd.xml QuickSystemOverview.xml"
  "HyperV30.xml SystemOverview.xml QuickSystemOverview.xml"
  "SharePoint.xml QuickSystemOverview.xml IIS.xml SQLServer.xml AspDotNet.xml Asp.xml SystemOverview.xml"
  "DynamicsAX2012AOS.xml DynamicsAX.xml SystemOverview.xml QuickSystemOverview.xml"
  "Asp.xml SystemOverview.xml QuickSystemOverview.xml"
  "SP2013.xml QuickSystemOverview.xml"
  "BizTalkServer2006.xml"
  "CitrixXenApp.xml"
  "PrintServer.xml"
  "WindowsUpdate.xml"
)
cd "$dir"
for row in "${rows[@]}"; do
  read -r -a files <<<"$row"
  missing=()
  for f in "${files[@]}"; do [[ -f $f ]] || missing+=("$f"); done
  if ((${#missing[@]})); then
    printf '%-100s -  (not here: %s)\n' "$row" "${missing[*]}"
    continue
  fi
  out=$("$bin" "${files[@]}")
  # "PAL: a, b: translated 141 / 147 (missing files: [])"
  read -r t n < <(sed -n '1s/.*translated \([0-9]*\) \/ \([0-9]*\).*/\1 \2/p' <<<"$out")
  printf '%-100s %s / %s (%s%%)\n' "$row" "$t" "$n" "$(awk -v t="$t" -v n="$n" 'BEGIN { printf "%.1f", n ? 100 * t / n : 0 }')"
  ((why)) && sed -n '2,$p' <<<"$out" | grep -v '^      '
done
