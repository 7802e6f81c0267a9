# Horizontal-free bar chart of the top N. Variables: datafile (rank,
# count, label), outfile, title_text, ylabel_text.
set terminal svg size 900,380 font "DejaVu Sans,10" background "#ffffff"
set output outfile
set title title_text
set ylabel ylabel_text
set style fill solid 0.7
set boxwidth 0.7
set xtics rotate by -30 left
set grid ytics
set yrange [0:*]
plot datafile using 1:2:xtic(3) with boxes lc rgb "#4e9a06" notitle
