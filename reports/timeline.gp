# Records per time bucket. Arguments (gnuplot -c timeline.gp ...): ARG1
# the data file (bucket start in seconds since the first record, count),
# ARG2 the SVG to write, ARG3 the title, ARG4 the y label; strings as
# given, enhanced text off.
set terminal svg size 900,320 font "DejaVu Sans,11" background "#ffffff" noenhanced
set output ARG2
set title ARG3
set xlabel "time since the first record (s)"
set ylabel ARG4
set grid
set xrange [0:*]
# from zero, and a range of 1 when every bucket is empty (no warning)
stats ARG1 using 2 nooutput
set yrange [0:(STATS_max > 0 ? STATS_max * 1.05 : 1)]
set offsets 0.5, 0.5, 0, 0
set style fill solid 0.6
set boxwidth 0.9 relative
plot ARG1 using 1:2 with boxes lc rgb "#3465a4" notitle
