import { createHash } from 'node:crypto';

/**
 * The site's one stylesheet. System fonts only (nothing fetched), light and dark by prefers-color-scheme, a visible
 * focus ring, and fixed sizes where content loads so nothing shifts. Served under a name carrying its hash, so it
 * is cached for a year and a change is a new URL.
 */
export const STYLESHEET = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--card:#f6f8fa;--accent:#0a58ca;
--accent-fg:#fff;--warn-bg:#fff4d6;--warn-fg:#6b4500;--focus:#0a58ca}
@media (prefers-color-scheme:dark){:root{--bg:#0f1216;--fg:#e6edf3;--muted:#9aa5b1;--line:#30363d;--card:#161b22;
--accent:#6ea8fe;--accent-fg:#0f1216;--warn-bg:#3b2e0a;--warn-fg:#f2cc60;--focus:#9ec5fe}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.55 system-ui,-apple-system,"Segoe UI",Roboto,
"Helvetica Neue",Arial,sans-serif}
a{color:var(--accent)}
a:hover{text-decoration-thickness:2px}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:var(--accent);color:var(--accent-fg);padding:.5rem 1rem;z-index:9}
.skip:focus{left:.5rem;top:.5rem}
.wrap{max-width:72rem;margin:0 auto;padding:0 1rem}
header.site{border-bottom:1px solid var(--line)}
header.site .wrap{display:flex;flex-wrap:wrap;align-items:center;gap:.25rem 1.25rem;min-height:3.5rem}
.brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg)}
nav ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
main{padding:1.25rem 0 3rem}
footer.site{border-top:1px solid var(--line);color:var(--muted);font-size:.9rem;padding:1rem 0 2rem}
h1{font-size:1.75rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.25rem;margin:2rem 0 .75rem}
.muted{color:var(--muted)}
.grid{display:grid;gap:1.5rem}
@media (min-width:56rem){.grid.side{grid-template-columns:18rem 1fr}.grid.two{grid-template-columns:1fr 1fr}}
.search{display:flex;gap:.5rem;flex-wrap:wrap}
.search input{flex:1 1 16rem}
input,select,button{font:inherit;color:inherit}
input[type=text],input[type=search],input[type=number],input[type=date],select{width:100%;padding:.45rem .6rem;
border:1px solid var(--line);border-radius:6px;background:var(--bg);min-height:2.5rem}
.search input{width:auto}
button,.button{display:inline-block;padding:.45rem 1rem;border-radius:6px;border:1px solid var(--accent);
background:var(--accent);color:var(--accent-fg);cursor:pointer;text-decoration:none;min-height:2.5rem}
.button.secondary{background:transparent;color:var(--accent)}
form.filters{display:grid;gap:.85rem;align-content:start}
form.filters label,fieldset legend{display:block;font-weight:600;font-size:.9rem;margin-bottom:.2rem}
fieldset{border:1px solid var(--line);border-radius:6px;margin:0;padding:.5rem .75rem}
form .check{display:flex;gap:.5rem;align-items:center;font-weight:400}
.check input{width:1.1rem;height:1.1rem;margin:0}
.cats{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.75rem;list-style:none;padding:0}
.cats a{display:flex;justify-content:space-between;padding:.75rem 1rem;border:1px solid var(--line);border-radius:8px;
text-decoration:none;background:var(--card)}
.cats a:hover{border-color:var(--accent)}
.count{font-variant-numeric:tabular-nums;color:var(--muted)}
.stats{display:flex;flex-wrap:wrap;gap:1.5rem;list-style:none;padding:0;margin:1.25rem 0 0}
.stats strong{display:block;font-size:1.5rem}
ol.jobs,ul.companies{list-style:none;padding:0;margin:0}
ol.jobs li,ul.companies li{padding:.8rem 0;border-bottom:1px solid var(--line)}
.title{font-weight:600;font-size:1.05rem}
.meta{display:flex;flex-wrap:wrap;gap:.25rem .9rem;color:var(--muted);font-size:.92rem}
.tag{display:inline-block;border:1px solid var(--line);border-radius:999px;padding:0 .55rem;font-size:.82rem;
margin:.1rem .2rem .1rem 0;background:var(--card)}
.tag .dim{color:var(--muted)}
.banner{background:var(--warn-bg);color:var(--warn-fg);border-radius:6px;padding:.75rem 1rem;margin:0 0 1rem}
.pager{display:flex;gap:1rem;align-items:center;margin-top:1.25rem;flex-wrap:wrap}
.summary{margin:.25rem 0 1rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:0}
dl.facts dt{color:var(--muted)}
dl.facts dd{margin:0}
.description{overflow-wrap:anywhere}
.description pre{overflow:auto;background:var(--card);padding:.75rem;border-radius:6px}
.description img{max-width:100%}
.apply{margin:1rem 0}
table{border-collapse:collapse}
img.chart{display:block;max-width:none;border:1px solid var(--line);border-radius:6px}
.chart-box{overflow-x:auto;max-width:100%}
details.more>summary{cursor:pointer;font-weight:600;padding:.35rem 0}
details.more>div{display:grid;gap:.85rem;margin-top:.5rem}
@media (min-width:56rem){details.more>summary{display:none}details.more::details-content{content-visibility:visible;
display:block}}
.pay{color:var(--fg)}
.new{display:inline-block;border-radius:999px;padding:0 .5rem;font-size:.8rem;font-weight:600;background:var(--warn-bg);
color:var(--warn-fg)}
.results-head{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;justify-content:space-between}
form.sort{display:flex;gap:.5rem;align-items:center}
form.sort select{width:auto}
details.follow{margin:0 0 1rem;border:1px solid var(--line);border-radius:6px;padding:.4rem .75rem;background:var(--card)}
details.follow>summary{cursor:pointer;font-weight:600}
details.follow pre{overflow-x:auto;font-size:.85rem;white-space:pre-wrap;overflow-wrap:anywhere}
table.data{width:100%;font-variant-numeric:tabular-nums}
table.data caption{text-align:left;color:var(--muted);margin-bottom:.5rem}
table.data th,table.data td{padding:.35rem .5rem;border-bottom:1px solid var(--line);text-align:right}
table.data th[scope=row],table.data th:first-child{text-align:left;font-weight:400}
@media (max-width:30rem){h1{font-size:1.45rem}nav ul{gap:.75rem}}
`
  .replace(/\n/g, '')
  .trim();

/** The stylesheet's path: its content hash in the name. */
export const STYLESHEET_PATH = `/assets/site.${createHash('sha256').update(STYLESHEET).digest('hex').slice(0, 12)}.css`;
