
#
!
/
u
s
r
/
b
i
n
/
e
n
v
 
b
a
s
h


#
 
t
e
s
t
s
/
c
l
i
/
p
h
y
s
i
c
s
.
s
h
 
B
U
I
L
D
 
-
 
r
i
g
i
d
-
b
o
d
y
 
p
h
y
s
i
c
s
 
t
h
r
o
u
g
h
 
t
h
e
 
r
e
a
l
 
b
i
n
a
r
y
.


#
 
(
a
)
 
t
h
e
 
g
e
n
e
r
a
t
e
d
 
d
e
m
o
 
(
h
a
i
r
 
c
h
a
i
n
s
 
a
n
d
 
s
k
i
r
t
 
s
i
m
u
l
a
t
e
d
)
 
r
e
n
d
e
r
s
 
b
y
t
e
-
i
d
e
n
t
i
c
a
l


#
 
 
 
 
 
P
N
G
s
 
w
h
o
l
e
,
 
i
n
 
3
 
c
h
u
n
k
s
 
(
e
a
c
h
 
c
h
u
n
k
 
p
r
e
-
r
o
l
l
s
 
a
n
d
 
s
i
m
u
l
a
t
e
s
 
f
r
o
m
 
f
r
a
m
e
 
0
)


#
 
 
 
 
 
a
n
d
 
w
i
t
h
 
o
t
h
e
r
 
-
-
t
h
r
e
a
d
s
 
v
a
l
u
e
s
,
 
o
v
e
r
 
f
r
a
m
e
s
 
w
h
e
r
e
 
t
h
e
 
h
a
i
r
 
s
w
i
n
g
s
;


#
 
(
b
)
 
p
h
y
s
i
c
s
 
r
e
a
l
l
y
 
r
u
n
s
:
 
f
r
a
m
e
s
 
d
i
f
f
e
r
 
f
r
o
m
 
-
-
n
o
-
p
h
y
s
i
c
s
,
 
a
n
d
 
t
h
e
 
f
r
a
m
e
s


#
 
 
 
 
 
w
h
e
r
e
 
o
n
l
y
 
t
h
e
 
s
i
m
u
l
a
t
e
d
 
p
a
r
t
s
 
c
o
u
l
d
 
d
i
f
f
e
r
 
(
t
h
e
 
p
o
s
e
 
i
s
 
s
t
a
t
i
c
 
u
n
t
i
l


#
 
 
 
 
 
f
r
a
m
e
 
1
5
)
 
d
i
f
f
e
r
 
t
o
o
;


#
 
(
c
)
 
G
e
n
e
_
l
i
g
h
t
 
(
8
7
 
b
o
d
i
e
s
)
 
w
i
t
h
 
a
 
s
h
a
r
e
d
 
m
o
t
i
o
n
:
 
w
h
o
l
e
 
r
u
n
 
v
s
 
3
 
c
h
u
n
k
s
,
 
b
y
t
e


#
 
 
 
 
 
i
d
e
n
t
i
c
a
l
 
(
s
k
i
p
p
e
d
 
w
i
t
h
o
u
t
 
.
.
/
s
h
a
r
e
d
)
.


.
 
t
e
s
t
s
/
u
t
i
l
/
c
l
i
_
l
i
b
.
s
h


[
 
-
x
 
"
$
M
M
D
"
 
]
 
|
|
 
{
 
e
c
h
o
 
"
n
o
t
 
o
k
 
1
 
-
 
$
M
M
D
 
m
i
s
s
i
n
g
"
;
 
e
c
h
o
 
"
#
 
c
o
u
n
t
s
:
 
0
 
p
a
s
s
e
d
,
 
1
 
f
a
i
l
e
d
,
 
0
 
s
k
i
p
p
e
d
"
;
 
e
x
i
t
 
1
;
 
}


M
K
D
E
M
O
=
$
B
U
I
L
D
/
t
o
o
l
s
/
m
k
d
e
m
o


i
f
 
[
 
!
 
-
f
 
s
c
e
n
e
s
/
d
e
m
o
.
i
n
i
 
]
 
|
|
 
[
 
!
 
-
x
 
"
$
M
K
D
E
M
O
"
 
]
;
 
t
h
e
n


 
 
 
 
t
_
s
k
i
p
 
"
p
h
y
s
i
c
s
"
 
"
s
c
e
n
e
s
/
d
e
m
o
.
i
n
i
 
o
r
 
$
M
K
D
E
M
O
 
n
o
t
 
t
h
e
r
e
"
;
 
t
_
d
o
n
e
;
 
e
x
i
t


f
i


#
 
O
S
M
e
s
a
 
(
M
e
s
a
 
2
2
)
 
l
e
a
k
s
 
i
t
s
 
c
o
n
t
e
x
t
 
s
t
a
t
e
 
a
t
 
e
x
i
t
;
 
n
o
t
 
o
u
r
s
.


p
r
i
n
t
f
 
'
l
e
a
k
:
l
i
b
O
S
M
e
s
a
.
s
o
\
n
'
 
>
"
$
T
M
P
/
l
s
a
n
.
s
u
p
p
"


e
x
p
o
r
t
 
L
S
A
N
_
O
P
T
I
O
N
S
=
"
s
u
p
p
r
e
s
s
i
o
n
s
=
$
T
M
P
/
l
s
a
n
.
s
u
p
p
:
p
r
i
n
t
_
s
u
p
p
r
e
s
s
i
o
n
s
=
0
$
{
L
S
A
N
_
O
P
T
I
O
N
S
:
+
:
$
L
S
A
N
_
O
P
T
I
O
N
S
}
"


S
=
$
T
M
P
/
s
c
e
n
e


m
k
d
i
r
 
-
p
 
"
$
S
"


c
p
 
s
c
e
n
e
s
/
d
e
m
o
.
i
n
i
 
"
$
S
/
"


i
f
 
!
 
"
$
M
K
D
E
M
O
"
 
"
$
S
/
d
e
m
o
"
 
>
"
$
T
M
P
/
m
k
d
e
m
o
.
l
o
g
"
 
2
>
&
1
;
 
t
h
e
n


 
 
 
 
t
_
f
a
i
l
 
"
d
e
m
o
 
a
s
s
e
t
s
"
 
"
$
(
t
a
i
l
 
-
3
 
"
$
T
M
P
/
m
k
d
e
m
o
.
l
o
g
"
)
"
;
 
t
_
d
o
n
e
;
 
e
x
i
t


f
i


S
C
E
N
E
=
$
S
/
d
e
m
o
.
i
n
i


O
U
T
=
$
(
"
$
M
M
D
"
 
i
n
f
o
 
"
$
S
/
d
e
m
o
/
c
h
a
r
a
c
t
e
r
.
p
m
x
"
 
2
>
&
1
)


t
_
g
r
e
p
 
"
d
e
m
o
 
c
h
a
r
a
c
t
e
r
 
h
a
s
 
r
i
g
i
d
 
b
o
d
i
e
s
"
 
'
^
r
i
g
i
d
 
b
o
d
i
e
s
:
 
+
[
1
-
9
]
[
0
-
9
]
*
'


t
_
g
r
e
p
 
"
d
e
m
o
 
c
h
a
r
a
c
t
e
r
 
h
a
s
 
j
o
i
n
t
s
"
 
'
^
j
o
i
n
t
s
:
 
+
[
1
-
9
]
[
0
-
9
]
*
'




f
r
a
m
e
s
_
o
f
(
)
 
{
 
(
c
d
 
"
$
1
"
 
&
&
 
l
s
 
f
r
a
m
e
_
*
.
p
n
g
 
2
>
/
d
e
v
/
n
u
l
l
 
|
 
s
e
d
 
'
s
/
f
r
a
m
e
_
0
*
\
(
[
0
-
9
]
\
)
/
\
1
/
;
 
s
/
\
.
p
n
g
$
/
/
'
 
|
 
s
o
r
t
 
-
n
 
|
 
t
r
 
'
\
n
'
 
'
 
'
)
;
 
}


s
a
m
e
_
d
i
r
(
)
 
{
 
#
 
R
E
F
 
D
I
R
:
 
D
I
R
 
h
a
s
 
P
N
G
s
,
 
e
a
c
h
 
b
y
t
e
-
i
d
e
n
t
i
c
a
l
 
t
o
 
R
E
F
'
s


 
 
 
 
l
o
c
a
l
 
f
 
b
a
d
=
0
 
n
=
0


 
 
 
 
f
o
r
 
f
 
i
n
 
"
$
2
"
/
f
r
a
m
e
_
*
.
p
n
g
;
 
d
o


 
 
 
 
 
 
 
 
[
 
-
f
 
"
$
f
"
 
]
 
|
|
 
c
o
n
t
i
n
u
e


 
 
 
 
 
 
 
 
n
=
$
(
(
n
 
+
 
1
)
)


 
 
 
 
 
 
 
 
c
m
p
 
-
s
 
"
$
f
"
 
"
$
1
/
$
(
b
a
s
e
n
a
m
e
 
"
$
f
"
)
"
 
|
|
 
{
 
b
a
d
=
1
;
 
e
c
h
o
 
"
d
i
f
f
e
r
s
:
 
$
(
b
a
s
e
n
a
m
e
 
"
$
f
"
)
"
;
 
}


 
 
 
 
d
o
n
e


 
 
 
 
[
 
$
n
 
-
g
t
 
0
 
]
 
|
|
 
{
 
e
c
h
o
 
"
n
o
 
f
r
a
m
e
s
 
i
n
 
$
2
"
;
 
r
e
t
u
r
n
 
1
;
 
}


 
 
 
 
r
e
t
u
r
n
 
$
b
a
d


}




#
 
(
a
)
 
f
r
a
m
e
s
 
0
.
.
9
0
 
e
v
e
r
y
 
1
0
:
 
t
h
e
 
d
a
n
c
e
 
s
t
a
r
t
s
 
a
t
 
3
0
,
 
t
h
e
 
h
a
i
r
 
s
w
i
n
g
s
 
a
f
t
e
r
 
i
t


R
=
(
-
-
s
i
z
e
 
1
6
0
x
9
0
 
-
-
f
r
a
m
e
s
 
0
-
9
0
:
1
0
 
-
q
)


t
_
e
x
p
e
c
t
 
"
d
e
m
o
 
w
i
t
h
 
p
h
y
s
i
c
s
,
 
w
h
o
l
e
"
 
0
 
"
$
M
M
D
"
 
"
$
S
C
E
N
E
"
 
-
o
 
"
$
T
M
P
/
r
e
f
/
"
 
"
$
{
R
[
@
]
}
"
 
-
-
t
h
r
e
a
d
s
 
1


[
 
"
$
(
f
r
a
m
e
s
_
o
f
 
"
$
T
M
P
/
r
e
f
"
)
"
 
=
 
"
0
 
1
0
 
2
0
 
3
0
 
4
0
 
5
0
 
6
0
 
7
0
 
8
0
 
9
0
 
"
 
]
 
&
&
 
t
_
p
a
s
s
 
"
1
0
 
f
r
a
m
e
s
"
 
|
|


 
 
 
 
t
_
f
a
i
l
 
"
1
0
 
f
r
a
m
e
s
"
 
"
$
(
f
r
a
m
e
s
_
o
f
 
"
$
T
M
P
/
r
e
f
"
)
"


a
l
l
=
"
"
;
 
b
a
d
=
"
"


f
o
r
 
i
 
i
n
 
0
 
1
 
2
;
 
d
o


 
 
 
 
"
$
M
M
D
"
 
"
$
S
C
E
N
E
"
 
-
o
 
"
$
T
M
P
/
c
$
i
/
"
 
"
$
{
R
[
@
]
}
"
 
-
-
t
h
r
e
a
d
s
 
1
 
-
-
c
h
u
n
k
 
"
$
i
/
3
"
 
|
|
 
t
_
f
a
i
l
 
"
c
h
u
n
k
 
$
i
/
3
 
e
x
i
t
"


 
 
 
 
a
l
l
+
=
"
$
(
f
r
a
m
e
s
_
o
f
 
"
$
T
M
P
/
c
$
i
"
)
"


 
 
 
 
s
a
m
e
_
d
i
r
 
"
$
T
M
P
/
r
e
f
"
 
"
$
T
M
P
/
c
$
i
"
 
>
"
$
T
M
P
/
c
$
i
.
l
o
g
"
 
|
|
 
b
a
d
+
=
"
 
$
i
:
 
$
(
t
r
 
'
\
n
'
 
'
 
'
 
<
"
$
T
M
P
/
c
$
i
.
l
o
g
"
)
"


d
o
n
e


[
 
"
$
a
l
l
"
 
=
 
"
0
 
1
0
 
2
0
 
3
0
 
4
0
 
5
0
 
6
0
 
7
0
 
8
0
 
9
0
 
"
 
]
 
&
&
 
t
_
p
a
s
s
 
"
3
 
c
h
u
n
k
s
 
c
o
v
e
r
 
t
h
e
 
f
r
a
m
e
s
 
o
n
c
e
"
 
|
|
 
t
_
f
a
i
l
 
"
3
 
c
h
u
n
k
s
 
c
o
v
e
r
"
 
"
$
a
l
l
"


[
 
-
z
 
"
$
b
a
d
"
 
]
 
&
&
 
t
_
p
a
s
s
 
"
3
 
c
h
u
n
k
s
 
b
y
t
e
-
i
d
e
n
t
i
c
a
l
 
t
o
 
t
h
e
 
w
h
o
l
e
 
r
u
n
"
 
|
|
 
t
_
f
a
i
l
 
"
c
h
u
n
k
s
 
i
d
e
n
t
i
c
a
l
"
 
"
$
b
a
d
"


t
_
e
x
p
e
c
t
 
"
-
-
t
h
r
e
a
d
s
 
2
"
 
0
 
"
$
M
M
D
"
 
"
$
S
C
E
N
E
"
 
-
o
 
"
$
T
M
P
/
t
h
2
/
"
 
"
$
{
R
[
@
]
}
"
 
-
-
t
h
r
e
a
d
s
 
2


O
U
T
=
$
(
s
a
m
e
_
d
i
r
 
"
$
T
M
P
/
r
e
f
"
 
"
$
T
M
P
/
t
h
2
"
)
 
&
&
 
t
_
p
a
s
s
 
"
i
d
e
n
t
i
c
a
l
 
w
i
t
h
 
-
-
t
h
r
e
a
d
s
 
2
"
 
|
|
 
t
_
f
a
i
l
 
"
i
d
e
n
t
i
c
a
l
 
w
i
t
h
 
-
-
t
h
r
e
a
d
s
 
2
"
 
"
$
O
U
T
"


t
_
e
x
p
e
c
t
 
"
-
-
c
h
u
n
k
 
2
/
3
 
-
-
t
h
r
e
a
d
s
 
0
"
 
0
 
"
$
M
M
D
"
 
"
$
S
C
E
N
E
"
 
-
o
 
"
$
T
M
P
/
c
2
t
0
/
"
 
"
$
{
R
[
@
]
}
"
 
-
-
t
h
r
e
a
d
s
 
0
 
-
-
c
h
u
n
k
 
2
/
3


O
U
T
=
$
(
s
a
m
e
_
d
i
r
 
"
$
T
M
P
/
r
e
f
"
 
"
$
T
M
P
/
c
2
t
0
"
)
 
&
&
 
t
_
p
a
s
s
 
"
l
a
s
t
 
c
h
u
n
k
 
w
i
t
h
 
-
-
t
h
r
e
a
d
s
 
0
 
i
d
e
n
t
i
c
a
l
"
 
|
|


 
 
 
 
t
_
f
a
i
l
 
"
l
a
s
t
 
c
h
u
n
k
 
w
i
t
h
 
-
-
t
h
r
e
a
d
s
 
0
 
i
d
e
n
t
i
c
a
l
"
 
"
$
O
U
T
"




#
 
(
b
)
 
p
h
y
s
i
c
s
 
r
u
n
s
:
 
t
h
e
 
s
a
m
e
 
f
r
a
m
e
s
 
w
i
t
h
o
u
t
 
i
t
 
d
i
f
f
e
r
 
(
h
a
i
r
 
a
n
d
 
s
k
i
r
t
 
h
a
n
g
 
a
t


#
 
t
h
e
i
r
 
r
e
s
t
 
s
h
a
p
e
)
;
 
f
r
a
m
e
 
1
0
 
t
o
o
,
 
w
h
e
r
e
 
t
h
e
 
b
o
d
y
 
i
s
 
s
t
i
l
l
 
i
n
 
i
t
s
 
s
t
a
r
t
 
p
o
s
e
,


#
 
s
o
 
o
n
l
y
 
w
h
a
t
 
p
h
y
s
i
c
s
 
m
o
v
e
d
 
(
t
h
e
 
p
r
e
-
r
o
l
l
e
d
 
h
a
i
r
 
a
n
d
 
s
k
i
r
t
)
 
c
a
n
 
d
i
f
f
e
r


t
_
e
x
p
e
c
t
 
"
-
-
n
o
-
p
h
y
s
i
c
s
"
 
0
 
"
$
M
M
D
"
 
"
$
S
C
E
N
E
"
 
-
o
 
"
$
T
M
P
/
n
o
p
h
y
s
/
"
 
"
$
{
R
[
@
]
}
"
 
-
-
t
h
r
e
a
d
s
 
1
 
-
-
n
o
-
p
h
y
s
i
c
s


n
d
i
f
f
=
0


f
o
r
 
f
 
i
n
 
"
$
T
M
P
"
/
n
o
p
h
y
s
/
f
r
a
m
e
_
*
.
p
n
g
;
 
d
o
 
c
m
p
 
-
s
 
"
$
f
"
 
"
$
T
M
P
/
r
e
f
/
$
(
b
a
s
e
n
a
m
e
 
"
$
f
"
)
"
 
|
|
 
n
d
i
f
f
=
$
(
(
n
d
i
f
f
 
+
 
1
)
)
;
 
d
o
n
e


[
 
"
$
n
d
i
f
f
"
 
-
e
q
 
1
0
 
]
 
&
&
 
t
_
p
a
s
s
 
"
a
l
l
 
1
0
 
f
r
a
m
e
s
 
d
i
f
f
e
r
 
f
r
o
m
 
-
-
n
o
-
p
h
y
s
i
c
s
"
 
|
|
 
t
_
f
a
i
l
 
"
p
h
y
s
i
c
s
 
c
h
a
n
g
e
s
 
f
r
a
m
e
s
"
 
"
$
n
d
i
f
f
 
o
f
 
1
0
 
d
i
f
f
e
r
"


#
 
t
h
e
 
h
a
i
r
 
s
w
i
n
g
s
:
 
f
r
a
m
e
s
 
5
0
 
a
n
d
 
6
0
 
d
i
f
f
e
r
 
f
r
o
m
 
t
h
e
 
r
e
s
t
 
p
o
s
e
 
d
i
f
f
e
r
e
n
t
l
y
 
t
h
a
n
 
0
 
d
o
e
s
 
(
m
o
v
i
n
g
,
 
n
o
t
 
s
t
a
t
i
c
)


i
f
 
!
 
c
m
p
 
-
s
 
"
$
T
M
P
/
r
e
f
/
f
r
a
m
e
_
0
0
0
0
5
0
.
p
n
g
"
 
"
$
T
M
P
/
r
e
f
/
f
r
a
m
e
_
0
0
0
0
6
0
.
p
n
g
"
;
 
t
h
e
n
 
t
_
p
a
s
s
 
"
f
r
a
m
e
s
 
5
0
,
 
6
0
 
d
i
f
f
e
r
"
;
 
e
l
s
e


 
 
 
 
t
_
f
a
i
l
 
"
f
r
a
m
e
s
 
5
0
,
 
6
0
 
d
i
f
f
e
r
"
;
 
f
i




#
 
(
c
)
 
G
e
n
e
_
l
i
g
h
t
 
w
i
t
h
 
a
 
s
h
a
r
e
d
 
m
o
t
i
o
n
,
 
p
h
y
s
i
c
s
 
o
n
:
 
w
h
o
l
e
 
v
s
 
3
 
c
h
u
n
k
s


G
E
N
E
=
$
S
H
A
R
E
D
_
A
S
S
E
T
S
/
g
e
n
e


i
f
 
[
 
-
f
 
"
$
G
E
N
E
/
G
e
n
e
_
l
i
g
h
t
.
p
m
x
"
 
]
 
&
&
 
[
 
-
f
 
"
$
G
E
N
E
/
m
o
t
i
o
n
/
2
2
_
a
p
o
l
o
g
y
.
v
m
d
"
 
]
;
 
t
h
e
n


 
 
 
 
c
a
t
 
>
"
$
T
M
P
/
g
e
n
e
.
i
n
i
"
 
<
<
E
O
F


[
o
u
t
p
u
t
]


f
p
s
 
=
 
3
0


a
n
t
i
a
l
i
a
s
 
=
 
1


[
c
a
m
e
r
a
]


t
a
r
g
e
t
 
=
 
0
 
1
0
 
0


d
i
s
t
a
n
c
e
 
=
 
-
4
0


[
m
o
d
e
l
:
g
e
n
e
]


f
i
l
e
 
=
 
$
(
c
d
 
"
$
G
E
N
E
"
 
&
&
 
p
w
d
)
/
G
e
n
e
_
l
i
g
h
t
.
p
m
x


m
o
t
i
o
n
 
=
 
$
(
c
d
 
"
$
G
E
N
E
"
 
&
&
 
p
w
d
)
/
m
o
t
i
o
n
/
2
2
_
a
p
o
l
o
g
y
.
v
m
d


p
h
y
s
i
c
s
 
=
 
o
n


E
O
F


 
 
 
 
G
=
(
-
-
s
i
z
e
 
1
6
0
x
1
6
0
 
-
-
f
r
a
m
e
s
 
0
-
6
0
:
1
2
 
-
q
 
-
-
t
h
r
e
a
d
s
 
1
)


 
 
 
 
t
_
e
x
p
e
c
t
 
"
G
e
n
e
_
l
i
g
h
t
 
w
i
t
h
 
p
h
y
s
i
c
s
,
 
w
h
o
l
e
"
 
0
 
"
$
M
M
D
"
 
"
$
T
M
P
/
g
e
n
e
.
i
n
i
"
 
-
o
 
"
$
T
M
P
/
g
/
"
 
"
$
{
G
[
@
]
}
"


 
 
 
 
[
 
"
$
(
f
r
a
m
e
s
_
o
f
 
"
$
T
M
P
/
g
"
)
"
 
=
 
"
0
 
1
2
 
2
4
 
3
6
 
4
8
 
6
0
 
"
 
]
 
&
&
 
t
_
p
a
s
s
 
"
G
e
n
e
:
 
6
 
f
r
a
m
e
s
"
 
|
|
 
t
_
f
a
i
l
 
"
G
e
n
e
:
 
6
 
f
r
a
m
e
s
"
 
"
$
(
f
r
a
m
e
s
_
o
f
 
"
$
T
M
P
/
g
"
)
"


 
 
 
 
a
l
l
=
"
"
;
 
b
a
d
=
"
"


 
 
 
 
f
o
r
 
i
 
i
n
 
0
 
1
 
2
;
 
d
o


 
 
 
 
 
 
 
 
"
$
M
M
D
"
 
"
$
T
M
P
/
g
e
n
e
.
i
n
i
"
 
-
o
 
"
$
T
M
P
/
g
$
i
/
"
 
"
$
{
G
[
@
]
}
"
 
-
-
c
h
u
n
k
 
"
$
i
/
3
"
 
|
|
 
t
_
f
a
i
l
 
"
G
e
n
e
 
c
h
u
n
k
 
$
i
/
3
 
e
x
i
t
"


 
 
 
 
 
 
 
 
a
l
l
+
=
"
$
(
f
r
a
m
e
s
_
o
f
 
"
$
T
M
P
/
g
$
i
"
)
"


 
 
 
 
 
 
 
 
s
a
m
e
_
d
i
r
 
"
$
T
M
P
/
g
"
 
"
$
T
M
P
/
g
$
i
"
 
>
"
$
T
M
P
/
g
$
i
.
l
o
g
"
 
|
|
 
b
a
d
+
=
"
 
$
i
:
 
$
(
t
r
 
'
\
n
'
 
'
 
'
 
<
"
$
T
M
P
/
g
$
i
.
l
o
g
"
)
"


 
 
 
 
d
o
n
e


 
 
 
 
[
 
"
$
a
l
l
"
 
=
 
"
0
 
1
2
 
2
4
 
3
6
 
4
8
 
6
0
 
"
 
]
 
&
&
 
t
_
p
a
s
s
 
"
G
e
n
e
:
 
3
 
c
h
u
n
k
s
 
c
o
v
e
r
 
t
h
e
 
f
r
a
m
e
s
 
o
n
c
e
"
 
|
|
 
t
_
f
a
i
l
 
"
G
e
n
e
 
c
h
u
n
k
s
 
c
o
v
e
r
"
 
"
$
a
l
l
"


 
 
 
 
[
 
-
z
 
"
$
b
a
d
"
 
]
 
&
&
 
t
_
p
a
s
s
 
"
G
e
n
e
:
 
3
 
c
h
u
n
k
s
 
b
y
t
e
-
i
d
e
n
t
i
c
a
l
 
t
o
 
t
h
e
 
w
h
o
l
e
 
r
u
n
"
 
|
|
 
t
_
f
a
i
l
 
"
G
e
n
e
 
c
h
u
n
k
s
 
i
d
e
n
t
i
c
a
l
"
 
"
$
b
a
d
"


 
 
 
 
"
$
M
M
D
"
 
"
$
T
M
P
/
g
e
n
e
.
i
n
i
"
 
-
o
 
"
$
T
M
P
/
g
n
/
"
 
"
$
{
G
[
@
]
}
"
 
-
-
n
o
-
p
h
y
s
i
c
s


 
 
 
 
n
d
i
f
f
=
0


 
 
 
 
f
o
r
 
f
 
i
n
 
"
$
T
M
P
"
/
g
n
/
f
r
a
m
e
_
*
.
p
n
g
;
 
d
o
 
c
m
p
 
-
s
 
"
$
f
"
 
"
$
T
M
P
/
g
/
$
(
b
a
s
e
n
a
m
e
 
"
$
f
"
)
"
 
|
|
 
n
d
i
f
f
=
$
(
(
n
d
i
f
f
 
+
 
1
)
)
;
 
d
o
n
e


 
 
 
 
[
 
"
$
n
d
i
f
f
"
 
-
g
t
 
0
 
]
 
&
&
 
t
_
p
a
s
s
 
"
G
e
n
e
:
 
p
h
y
s
i
c
s
 
c
h
a
n
g
e
s
 
f
r
a
m
e
s
 
(
$
n
d
i
f
f
 
o
f
 
6
)
"
 
|
|
 
t
_
f
a
i
l
 
"
G
e
n
e
:
 
p
h
y
s
i
c
s
 
c
h
a
n
g
e
s
 
f
r
a
m
e
s
"


e
l
s
e


 
 
 
 
t
_
s
k
i
p
 
"
G
e
n
e
_
l
i
g
h
t
 
p
h
y
s
i
c
s
 
c
h
u
n
k
s
"
 
"
s
k
i
p
p
e
d
:
 
n
o
 
.
.
/
s
h
a
r
e
d
"


f
i


t
_
d
o
n
e


