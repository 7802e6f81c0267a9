# Bar chart of the top N.
# Arguments (gnuplot -c bars.gp ...): ARG1 the data file (rank, count,
# label in double quotes), ARG2 the SVG to write, ARG3 the title, ARG4 the
# y label. Strings as given (never gnuplot code); enhanced text off, so a
# label's _ ^ { } @ & ~ are drawn as themselves (docs/report.md).
set terminal svg size 900,380 font "DejaVu Sans,10" background "#ffffff" noenhanced
set output ARG2
set title ARG3
set ylabel ARG4
set style fill solid 0.7
set boxwidth 0.7
set xtics rotate by -30 left
set grid ytics
set yrange [0:*]
plot ARG1 using 1:2:xtic(3) with boxes lc rgb "#4e9a06" notitle
