/**
 * The site's only script, inline (a few hundred bytes): a form marked data-enhance submits when a select or
 * checkbox changes, and leaves blank fields out of the URL it submits. When the back button returns to a page
 * (the browser may restore it as it was left), its forms are reset to what the page's URL says. Everything works
 * without it.
 */
export const ENHANCE_SCRIPT =
  "document.querySelectorAll('form[data-enhance]').forEach(function(f){" +
  "f.addEventListener('change',function(e){var t=e.target;" +
  "if(t.tagName==='SELECT'||t.type==='checkbox')f.requestSubmit?f.requestSubmit():f.submit()});" +
  "f.addEventListener('submit',function(){f.querySelectorAll('input,select').forEach(function(i){" +
  'if(!i.value&&i.name)i.disabled=true})});' +
  "window.addEventListener('pageshow',function(){f.querySelectorAll(':disabled').forEach(function(i){" +
  'i.disabled=false});f.reset()})});';
