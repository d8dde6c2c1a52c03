# Scenes for scripts/screenshots.sh: scene NAME COLS ROWS "ARGS" KEYS…
# Every scene is 120×35, the terminal people use (the issue's "screenshots
# at the width people use"), but too-small, which shows a smaller one, and
# items-preview-140, named for the width the preview pane needs.
scene tour 120 35 "" @20 j j
scene tables 120 35 "" @20 Escape @5 Escape @10 j j j j j j j
scene partitions 120 35 "--table Locations" 
scene tree 120 35 "--table Locations --pk USA --levels STATE#CITY#ZIP" j j j j j j j j j j j j j j j j j j j j j j j j j j j j j j j j j j j
scene tree-level 120 35 "--table Locations --pk USA --prefix NY#NEWYORKCITY# --levels STATE#CITY#ZIP" c @10
scene items 120 35 "--table Locations --pk USA" Tab j j j j j j j j j j j j
scene items-preview-140 140 35 "--table Locations --pk USA" Tab j j j j j j j j j j j j
scene item 120 35 "--table Equipment --pk Equipment_1" Tab j Enter
scene item-dynamodb-json 120 35 "--table Equipment --pk Equipment_1" Tab j Enter d
scene help 120 35 "--table DeviceLogs --pk 123" "?"
scene bad-input 120 35 "--table DeviceLogs" / a b c Enter
scene too-small 50 12 ""
scene versions 120 35 "--table Equipment --pk Equipment_1" 3 j
scene timeline 120 35 "--table Equipment --pk Equipment_1" 3 j Enter
scene time 120 35 "--table AuditLog --pk prod-api" t l a s t Space 2 4 h Enter
scene export 120 35 "--table DeviceLogs --pk 9000" e
scene copy-command 120 35 "--table AuditLog --pk prod-api --range 'last 24h'" y
scene high-contrast 120 35 "--table Equipment --pk Equipment_1 --versions --theme high-contrast" j
scene filter 120 35 "--table DeviceLogs --pk 9000 --filter 'Level = \"ERROR\" and Temperature > 34.5'" j j j
scene filter-error 120 35 "--table DeviceLogs --pk 9000" f L e v e l Space = Space '"' E R R O R '"' Space a n d Space T e m p e r a t u r e Space '>' Enter
scene columns 120 35 "--table Locations --pk USA" Tab C j j
scene mouse 120 35 "--table Locations --pk USA --levels STATE#CITY#ZIP" click:6,8 click:6,8 click:6,6
scene export-children 120 35 "--table Locations --pk USA --prefix NY# --levels STATE#CITY#ZIP" e
scene versions-pattern 120 35 "--table Policies --pk POL-1001 --versions --version-pattern 'rev#{n}#{name}'" j
scene masked 120 35 "--table Locations --pk USA --prefix NY#NEWYORKCITY# --mask PK,SK,City,StreetAddress" @10 Tab @10 j j
