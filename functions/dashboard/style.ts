/** The dashboard's one stylesheet, inline (the CSP allows inline styles and no other origin). */
export const DASHBOARD_STYLE = `
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f3f4f6}
a{color:#0b4f8a}
.skip{position:absolute;left:-999px;top:0;background:#fff;padding:.5rem 1rem;z-index:10}
.skip:focus{left:1rem;top:1rem}
header.top{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:.5rem 1rem;padding:.75rem 1rem;background:#0b3d6b;color:#fff}
header.top .brand{margin:0;font-weight:700;font-size:1.05rem}
header.top a,header.top button.link{color:#fff}
header.top .who{font-size:.875rem;margin:0;overflow-wrap:anywhere}
header.top form{display:inline}
.top-actions{display:flex;align-items:center;gap:.75rem;flex-wrap:wrap}
nav.sections{background:#fff;border-bottom:1px solid #d1d5db;overflow-x:auto}
nav.sections ul{display:flex;gap:.25rem;list-style:none;margin:0 auto;padding:0 .5rem;max-width:72rem}
nav.sections a{display:inline-flex;align-items:center;min-height:44px;padding:0 .75rem;text-decoration:none;color:#1f2937;white-space:nowrap;border-bottom:3px solid transparent}
nav.sections a[aria-current=page]{border-bottom-color:#0b4f8a;font-weight:700;color:#0b3d6b}
main{max-width:72rem;margin:0 auto;padding:1rem}
h1{font-size:1.6rem;line-height:1.2;margin:.5rem 0 1rem;overflow-wrap:anywhere}
h2{font-size:1.25rem;margin:1.5rem 0 .75rem}
.badge{display:inline-block;margin:0 0 1rem;padding:.25rem .6rem;border-radius:999px;background:#fff4d6;color:#5c3c00;font-size:.875rem;border:1px solid #b7791f}
.badge.live{background:#e7f6ec;color:#14532d;border-color:#15803d}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.12);margin-bottom:1rem}
.narrow{max-width:30rem;margin:2rem auto}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text],input[type=email],input[type=url],input[type=date],input[type=datetime-local],input[type=number],select,textarea{width:100%;max-width:32rem;min-height:44px;padding:.5rem .75rem;font:inherit;color:#111827;background:#fff;border:1px solid #6b7280;border-radius:8px}
fieldset{border:1px solid #d1d5db;border-radius:8px;padding:.75rem 1rem;margin:.75rem 0}
legend{font-weight:600;padding:0 .25rem}
.check{display:flex;align-items:center;gap:.5rem;min-height:32px;font-weight:400;margin:.25rem 0}
.check input{width:1.1rem;height:1.1rem;margin:0}
.check.scope{align-items:flex-start}
.check.scope input{margin-top:.2rem;flex:none}
textarea{min-height:6rem;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.875rem}
.field-error{margin:.25rem 0 .5rem;color:#7a0014;font-weight:600}
[aria-invalid=true]{border-color:#b00020;border-width:2px}
form.inline{display:flex;flex-wrap:wrap;gap:.25rem .5rem;align-items:center;margin-top:.25rem}
form.inline input{width:auto;min-width:12rem}
form.inline small,form.inline .field-error{flex-basis:100%;margin:0}
ul.bare{list-style:none;margin:0;padding:0}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin-top:1rem;align-items:center}
button,.button{display:inline-flex;align-items:center;justify-content:center;font:inherit;font-weight:600;min-height:44px;padding:.5rem 1.1rem;border-radius:8px;cursor:pointer;border:2px solid #0b4f8a;background:#0b4f8a;color:#fff;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#0b4f8a}
button.danger{background:#b42318;border-color:#b42318;color:#fff}
button.link{background:none;border:0;padding:0;min-height:auto;text-decoration:underline;font-weight:400}
button:focus-visible,a:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible,summary:focus-visible{outline:3px solid #111827;outline-offset:2px}
.error{margin:1rem 0;padding:.75rem 1rem;border-left:4px solid #b00020;background:#fdecee;color:#7a0014}
.note{margin:1rem 0;padding:.75rem 1rem;border-left:4px solid #0b4f8a;background:#eef5fc}
.secret{margin:1rem 0;padding:1rem;border:2px solid #b7791f;border-radius:8px;background:#fffaeb}
.secret code{display:block;margin:.5rem 0;font-size:.95rem;word-break:break-all}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.875rem}
.mono{word-break:break-all}
.table-wrap{overflow-x:auto;background:#fff;border-radius:12px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.table-wrap+.table-wrap{margin-top:1rem}
table{border-collapse:collapse;width:100%;font-size:.9375rem}
caption{text-align:left;padding:.75rem 1rem;font-weight:600}
th,td{text-align:left;padding:.6rem .75rem;border-top:1px solid #e5e7eb;vertical-align:top}
th{background:#f9fafb;font-weight:600;white-space:nowrap}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
.pill{display:inline-block;padding:.1rem .5rem;border-radius:999px;font-size:.8125rem;font-weight:600;background:#eef2f7;color:#1f2937;white-space:nowrap}
.pill.good{background:#e7f6ec;color:#14532d}.pill.bad{background:#fdecee;color:#7a0014}.pill.wait{background:#fff4d6;color:#5c3c00}
dl.facts{display:grid;grid-template-columns:minmax(8rem,14rem) 1fr;gap:.5rem 1rem;margin:0}
dl.facts dt{color:#374151;font-weight:600}
dl.facts dd{margin:0;overflow-wrap:anywhere}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(12rem,1fr));gap:1rem;margin:0 0 1rem;padding:0;list-style:none}
.stats li{background:#fff;border-radius:12px;padding:1rem;box-shadow:0 1px 3px rgba(0,0,0,.12)}
.stats strong{display:block;font-size:1.6rem}
.filters{display:flex;flex-wrap:wrap;gap:.75rem;align-items:flex-end;margin:0 0 1rem}
.filters label{margin:0 0 .25rem}
.filters div{min-width:10rem}
.pager{display:flex;gap:1rem;margin:1rem 0;flex-wrap:wrap}
pre.body{margin:0;padding:.75rem;max-height:32rem;overflow:auto;background:#f9fafb;border:1px solid #e5e7eb;border-radius:8px;font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.875rem;white-space:pre-wrap;overflow-wrap:anywhere}
ol.timeline{padding-left:1.25rem}
ol.timeline li{margin:.4rem 0}
@media (max-width:40rem){dl.facts{grid-template-columns:1fr}dl.facts dd{margin-bottom:.5rem}h1{font-size:1.35rem}main{padding:.75rem}}
`;
