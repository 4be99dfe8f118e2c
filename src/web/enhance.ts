/**
 * The site's only script, inline (under a kilobyte): a form marked data-enhance submits when a select or checkbox
 * changes, and leaves blank fields out of the URL it submits. When the back button returns to a page (the browser
 * may restore it as it was left), its forms are reset to what the page's URL says. A <time data-relative> (which
 * the server renders as a date, so a page stays the same while the catalog does) is shown relative to the
 * reader's clock: "3 days ago", "just now". Everything works without it.
 */
export const ENHANCE_SCRIPT =
  "document.querySelectorAll('form[data-enhance]').forEach(function(f){" +
  "f.addEventListener('change',function(e){var t=e.target;" +
  "if(t.tagName==='SELECT'||t.type==='checkbox')f.requestSubmit?f.requestSubmit():f.submit()});" +
  "f.addEventListener('submit',function(){f.querySelectorAll('input,select').forEach(function(i){" +
  'if(!i.value&&i.name)i.disabled=true})});' +
  "window.addEventListener('pageshow',function(){f.querySelectorAll(':disabled').forEach(function(i){" +
  'i.disabled=false});f.reset()})});' +
  "if(window.Intl&&Intl.RelativeTimeFormat){var r=new Intl.RelativeTimeFormat('en',{numeric:'auto'})," +
  "u=[['year',31536e3],['month',2592e3],['week',604800],['day',86400],['hour',3600],['minute',60]];" +
  "document.querySelectorAll('time[data-relative]').forEach(function(t){" +
  "var d=(Date.parse(t.dateTime)-Date.now())/1e3,s='just now';" +
  'for(var i=0;i<u.length;i++)if(Math.abs(d)>=u[i][1]){s=r.format(Math.trunc(d/u[i][1]),u[i][0]);break}' +
  't.textContent=s})}';
