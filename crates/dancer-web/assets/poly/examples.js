// A small working puzzle on each grid, for the editor's example buttons:
// each solves in well under a second, and shows how boards and pieces are
// written on its grid (pictures where the grid has them, cell lists on the
// twig and trig grids, which have none; layer pictures in space). No named
// piece sets: every piece is drawn here, so the examples read the same
// whatever sets the server knows.

export const EXAMPLES = [
  {
    grid: 'square',
    label: 'Squares',
    toml: `name = "tetrominoes-4x10"
about = "the five tetrominoes, two of each, in a 4 x 10 rectangle"
# 1,796 solutions, 449 up to symmetry

[board]
rect = [10, 4]                # width, height

[[piece]]
name = "I"
shape = "####"                # a picture: one character a square
count = 2

[[piece]]
name = "O"
shape = """
##
##
"""
count = 2

[[piece]]
name = "T"
shape = """
###
.#.
"""
count = 2

[[piece]]
name = "L"
shape = """
###
#..
"""
count = 2

[[piece]]
name = "S"
shape = """
.##
##.
"""
count = 2
`,
  },
  {
    grid: 'cube',
    label: 'Cubes',
    toml: `name = "tricubes-3x2x2"
about = "L and I tricubes, any number of each, in a 3 x 2 x 2 box"
# 73 solutions, 10 up to symmetry
grid = "cube"

[board]
box = [3, 2, 2]               # width, height, depth (layers)

[[piece]]
name = "L"
cells = [[0, 0, 0], [1, 0, 0], [0, 1, 0]]   # [x, y, z]
count = "any"

[[piece]]
name = "I"
cells = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]
count = "any"
`,
  },
  {
    grid: 'triangle',
    label: 'Triangles',
    toml: `name = "tetriamonds-hexagon"
about = "the three tetriamonds, any number of each, in a hexagon of 24 triangles"
# 218 solutions, 26 up to symmetry
grid = "triangle"

[board]
hexagon = 2                   # side 2; or parallelogram = [w, h], triangle = n

# Pictures of triangles: one character a triangle, half a triangle wide;
# on line l, column c is an up triangle where c + l is even, a down one
# where it is odd (so the first character of the first line is up).

[[piece]]
name = "I4"
shape = "####"
count = "any"

[[piece]]
name = "C4"
shape = """
###
  #
"""
count = "any"

[[piece]]
name = "T4"
shape = """
  #
 ###
"""
count = "any"
`,
  },
  {
    grid: 'hexagon',
    label: 'Hexagons',
    toml: `name = "tetrahexes-4x7"
about = "the seven tetrahexes in a 7 x 4 parallelogram"
# 18 solutions, 9 up to symmetry
grid = "hexagon"

[board]
parallelogram = [7, 4]        # 7 hexagons a row, 4 rows

# Pictures of hexagons: a character a hexagon, a blank between two of a
# row, each line half a hexagon (one column) left of the line above it.

[[piece]]
name = "I4"
shape = "# # # #"

[[piece]]
name = "J4"
shape = """
     #
# # #
"""

[[piece]]
name = "P4"
shape = """
   #
# # #
"""

[[piece]]
name = "S4"
shape = """
   # #
# #
"""

[[piece]]
name = "U4"
shape = """
#   #
 # #
"""

[[piece]]
name = "Y4"
shape = """
   #
# #
   #
"""

[[piece]]
name = "O4"
shape = """
 # #
# #
"""
`,
  },
  {
    grid: 'stick',
    label: 'Sticks',
    toml: `name = "tristicks-2x2"
about = "tristicks, any number of each, on the 12 edges of a 2 x 2 grid of squares"
# 51 solutions, 10 up to symmetry; with crossings = true, 55 (11)
grid = "stick"
crossings = false             # no two pieces cross at a point

[board]
rect = [2, 2]                 # the edges of 2 x 2 squares, outline included

# Pictures of sticks: '+' the points, '-' and '|' the edges.

[[piece]]
name = "I3"
shape = "+-+-+-+"
count = "any"

[[piece]]
name = "L3"
shape = """
    +
    |
+-+-+
"""
count = "any"

[[piece]]
name = "T3"
shape = """
  +
  |
+-+-+
"""
count = "any"

[[piece]]
name = "Z3"
shape = """
+-+
  |
  +-+
"""
count = "any"

[[piece]]
name = "U3"
shape = """
+ +
| |
+-+
"""
count = "any"
`,
  },
  {
    grid: 'twig',
    label: 'Twigs',
    toml: `name = "tritwigs-triangle"
about = "tritwigs, any number of each, on the edges of a triangle of six hexagons"
# 271 solutions, 50 up to symmetry
grid = "twig"

[board]
triangle = 3                  # the edges of the hexagons of a triangle of side 3

# Twigs have no pictures: cells [x, y, k], the side shared by hexagon
# [x, y] and its neighbour right (k = 0), below left (1) or below right (2).

[[piece]]
name = "Y3"
cells = [[0, 0, 0], [0, 0, 2], [1, 0, 1]]
count = "any"

[[piece]]
name = "S3"
cells = [[0, 0, 1], [0, 1, 0], [1, 1, 1]]
count = "any"

[[piece]]
name = "C3"
cells = [[0, 0, 2], [0, 1, 0], [1, 1, 1]]
count = "any"
`,
  },
  {
    grid: 'trig',
    label: 'Trigs',
    toml: `name = "tritrigs-triangle"
about = "tritrigs, any number of each, on the 9 edges of a triangle of side 2"
# 32 solutions, 8 up to symmetry; with crossings = true, 60 (15)
grid = "trig"
crossings = false             # no two pieces cross at a point

[board]
triangle = 2

# Trigs have no pictures: cells [x, y, k], the edge from point [x, y]
# to the right (k = 0), down left (1) or down right (2).

[[piece]]
name = "C3"
cells = [[0, 0, 2], [0, 2, 0], [1, 1, 1]]
count = "any"

[[piece]]
name = "E3"
cells = [[0, 0, 2], [0, 1, 0], [1, 0, 1]]
count = "any"

[[piece]]
name = "I3"
cells = [[0, 0, 0], [1, 0, 0], [2, 0, 0]]
count = "any"

[[piece]]
name = "J3"
cells = [[0, 1, 0], [1, 0, 2], [1, 1, 0]]
count = "any"

[[piece]]
name = "L3"
cells = [[0, 1, 0], [1, 1, 0], [2, 0, 1]]
count = "any"

[[piece]]
name = "O3"
cells = [[0, 0, 1], [0, 0, 2], [0, 1, 0]]
count = "any"

[[piece]]
name = "P3"
cells = [[0, 1, 0], [1, 0, 1], [1, 0, 2]]
count = "any"

[[piece]]
name = "S3"
cells = [[0, 1, 0], [1, 0, 0], [1, 0, 1]]
count = "any"

[[piece]]
name = "T3"
cells = [[0, 1, 0], [1, 0, 1], [1, 1, 0]]
count = "any"

[[piece]]
name = "U3"
cells = [[0, 0, 0], [0, 1, 0], [1, 0, 1]]
count = "any"

[[piece]]
name = "Y3"
cells = [[0, 1, 0], [1, 0, 1], [1, 1, 2]]
count = "any"

[[piece]]
name = "Z3"
cells = [[0, 0, 0], [0, 0, 2], [0, 1, 0]]
count = "any"
`,
  },
  {
    grid: 'sphere',
    label: 'Spheres',
    toml: `name = "ballroom-pyramid"
about = "Stewart Coffin's BallRoom: four polyspheres into a square pyramid of 14 spheres"
# 16 solutions, 2 up to symmetry
grid = "sphere"

# A layer is a square grid of spheres turned by 45 degrees: the character
# at column x of line y is the sphere [x, y, z]; spheres stand at every
# other column, and a sphere of layer z + 1 rests on four of layer z.
[board]
layers = [
"""
. # .
 # #
# # #
 # #
. # .
""",
"""
 . .
. # .
 # #
. # .
""",
"""
. . .
 . .
. # .
""",
]

# A piece is drawn the same way, layer by layer.
[[piece]]
name = "bent"
layers = ["""
. #
 # #
"""]

[[piece]]
name = "straight"
layers = ["""
. #
 #
# .
"""]

[[piece]]
name = "hooked"
layers = ["""
. #
 #
# .
""", """
 #
"""]

[[piece]]
name = "kinked"
layers = ["""
. .
 #
. #
""", """
 #
. .
 #
"""]
`,
  },
  {
    grid: 'prism',
    label: 'Prisms',
    toml: `name = "hexagonal-prism"
about = "three tetraprisms in a hexagonal prism two layers high"
# 24 solutions, 1 up to symmetry
grid = "prism"

# A layer is a triangle picture: the character at column c of line y is
# the triangle [x, y, k] with 2x + k = c + y, pointing up where c + y is
# even; the layer z above holds the prisms [x, y, 2z + k].
[board]
layers = ["""
ABC
DEF
""", """
ABC
DEF
"""]

# A piece is drawn the same way, layer by layer.
[[piece]]
name = "bar"
layers = ["##", "##"]

[[piece]]
name = "fan"
layers = ["###", "#"]

[[piece]]
name = "step"
layers = ["###", "..#"]
`,
  },
];
